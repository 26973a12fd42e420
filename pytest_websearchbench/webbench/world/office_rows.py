"""The records every world's office apps hold that are written the same way in each (a stakeholder
draft, a message), named by the world's declaration (:mod:`.office`). What differs (how old they are,
who sends mail, what a draft gathers) the world's ``*_office`` module passes in; the draws from the
world's random stream come in the same order in every world."""

from __future__ import annotations

from pytest_websearchbench.webbench.world import vocab
from pytest_websearchbench.webbench.world.office import DRAFT_STATUSES, MAIL_FOLDERS, Office
from pytest_websearchbench.webbench.world.toolkit import WorldBuilder, days_ago


def add_draft(w: WorldBuilder, o: Office, about: str, author: str, body: str, *, oldest: int) -> tuple[str, int]:
    """A stakeholder draft about a record of the chain, created 1 to ``oldest`` days ago: its key, and
    how many days ago it was created (what is added to it comes after)."""
    created = w.number(1, oldest)
    draft = w.add(
        o.drafts.table,
        **{o.subject_key: about},
        author_id=author,
        audience=w.pick(vocab.AUDIENCES),
        subject=f"{w.pick(vocab.MEMO_SUBJECTS)} for {about}",
        status=w.pick(DRAFT_STATUSES),
        created_on=days_ago(created),
        updated_on=days_ago(w.number(0, created)),
        body=body,
    )
    return draft, created


def add_mail(
    w: WorldBuilder,
    o: Office,
    sender: str,
    recipient: str,
    about: str | None,
    subject: str,
    body: str,
    *,
    oldest: int,
    customer: str | None = None,
) -> str:
    """A message received 0 to ``oldest`` days ago (``customer``: its sender's, where the world's
    messages name one)."""
    return w.add(
        o.mail.table,
        sender=sender,
        recipient_id=recipient,
        **({"customer_id": customer} if o.mail_customers else {}),
        **{o.subject_key: about},
        subject=subject,
        folder=w.pick(MAIL_FOLDERS),
        received_on=days_ago(w.number(0, oldest)),
        body=body,
    )
