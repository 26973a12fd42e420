"""The office apps every world has (Channels, Drive, Mailroom, Memos), declared once a world by what
differs: their tables' names, key prefixes and pools, who works in them and which of the chain's records
they are about. The tables are made from it in :mod:`.schema`, the list pages in :mod:`..webapps.office`;
what a world's office apps hold is laid by its own ``*_office`` module."""

from __future__ import annotations

from dataclasses import dataclass

MAIL_FOLDERS = ("inbox", "archive")
DRAFT_STATUSES = ("draft", "in_review", "sent")


@dataclass(frozen=True)
class Names:
    """One office table in one world: its name, its key prefix, the numbers its keys are drawn from."""

    table: str
    prefix: str
    pool: tuple[int, int]


@dataclass(frozen=True)
class Office:
    """A world's office apps, by what differs between worlds."""

    people: str  # the table of those who post, own files, receive mail and write drafts
    subject: str  # the chain's record the office records are about (its table is the plural)
    channel: str  # what a chat room is called in the world's Channels
    channel_title: str  # its record page's title
    channels: Names
    posts: Names
    folders: Names
    files: Names
    mail: Names
    drafts: Names
    mail_customers: str | None = None  # a message names its sender's customer, a key of this table

    @property
    def subjects(self) -> str:
        return f"{self.subject}s"

    @property
    def subject_key(self) -> str:
        return f"{self.subject}_id"

    @property
    def channel_key(self) -> str:
        return f"{self.channel}_id"


WORKPLACE_OFFICE = Office(
    people="engineers",
    subject="escalation",
    channel="channel",
    channel_title="Channel",
    channels=Names("channels", "CH", (11, 99)),
    posts=Names("chat_posts", "CP", (20001, 21500)),
    folders=Names("folders", "FD", (11, 200)),
    files=Names("files", "FL", (1001, 4000)),
    mail=Names("mail", "ML", (40001, 41200)),
    drafts=Names("memos", "MM", (501, 1500)),
    mail_customers="customers",
)
DESKOPS_OFFICE = Office(
    people="staff",
    subject="event",
    channel="room",
    channel_title="Chat room",
    channels=Names("rooms", "RM", (11, 99)),
    posts=Names("room_posts", "RP", (1001, 3000)),
    folders=Names("shared_folders", "SF", (11, 200)),
    files=Names("shared_files", "SFL", (1001, 3000)),
    mail=Names("inbox_mail", "IM", (1001, 3000)),
    drafts=Names("stakeholder_drafts", "SD", (101, 900)),
)
