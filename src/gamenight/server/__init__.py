"""The web app: lobby, live tables over WebSocket, bots in a worker pool, storage.

`app.create_app(db_url)` builds the FastAPI app; `app.serve(host, port, db)` runs it.
"""
