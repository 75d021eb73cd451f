"""The app's routers, one module per room of the server: lobby (games and new tables),
tables (one table over HTTP), replay, live (the table's WebSocket). Pages, operations and
accounts have their own modules one level up. `common.Server` is what they share."""
