"""log-in and sign-up limits kept in the database (login_limits), and each account's name
skeleton (accounts.skeleton: names that read alike are one name)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_limits",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_login_limits_expires", "login_limits", ["expires"])
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(96), nullable=True))
    # The skeleton of every existing name; when two old names read alike, the older account
    # keeps it (new names are compared with it) and the later one keeps its name, unmarked.
    from gamenight.server.names import skeleton

    conn = op.get_bind()
    taken: set[str] = set()
    rows = conn.execute(sa.text("SELECT id, name FROM accounts ORDER BY created, id")).all()
    for account_id, name in rows:
        skel = skeleton(name)
        if skel and skel not in taken:
            taken.add(skel)
            conn.execute(
                sa.text("UPDATE accounts SET skeleton = :s WHERE id = :i"),
                {"s": skel, "i": account_id},
            )
    op.create_index("ux_accounts_skeleton", "accounts", ["skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_accounts_skeleton", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("skeleton")
    op.drop_index("ix_login_limits_expires", "login_limits")
    op.drop_table("login_limits")
