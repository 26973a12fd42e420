"""The list pages of the office apps every world has (Channels, Drive, Mailroom, Memos), made from the
world's declaration (:mod:`..world.office`) and the few filters one world's lists add: a world's apps
module (:mod:`.workplace`, :mod:`.deskops`) places them among its own."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_websearchbench.webbench.webapps.apps import Filter, Linked, ListView, day_range
from pytest_websearchbench.webbench.world import vocab
from pytest_websearchbench.webbench.world.office import DRAFT_STATUSES, MAIL_FOLDERS, Office


@dataclass(frozen=True)
class OfficeLists:
    channels: tuple[ListView, ListView]  # the chat rooms, their posts
    drive: tuple[ListView, ListView]  # the folders, their files
    mail: ListView
    drafts: ListView
    linked: Linked  # a chat room's posts, a folder's files


def office_lists(
    o: Office,
    *,
    channel_teams: tuple[str, ...] = (),
    dated_posts: bool = False,
    owner_before_subject: bool = False,
    draft_authors: bool = False,
) -> OfficeLists:
    """The office lists of a world. What only some worlds' lists filter by: the channels by these
    teams (``channel_teams``), the posts by day (``dated_posts``), the drafts by author
    (``draft_authors``); and a world's file list may ask for the owner before the record it is about
    (``owner_before_subject``). A world whose messages name a customer filters the mail by it."""
    people, key = o.people, o.subject_key
    about = Filter(o.subject, o.subject.capitalize(), f"t.{key}")
    owner = Filter("owner", "Owner", "t.owner_id")
    customer = (Filter("customer", "Customer", "t.customer_id"),) if o.mail_customers else ()
    channel = o.channel.capitalize()
    return OfficeLists(
        (
            ListView(
                o.channels.table,
                f"Channels · {channel}s",
                ("id", "name", "team", "topic"),
                search=("t.id", "t.name", "t.topic"),
                filters=(Filter("team", "Team", "t.team", choices=channel_teams),) if channel_teams else (),
                default_sort="name",
            ),
            ListView(
                o.posts.table,
                "Channels · Posts",
                ("id", o.channel_key, "author_id", key, "posted_on", "body"),
                search=("t.id", "t.body"),
                filters=(
                    Filter(o.channel, channel, f"t.{o.channel_key}"),
                    Filter("author", "Author", "t.author_id"),
                    about,
                    *(day_range("posted_on") if dated_posts else ()),
                ),
                default_sort="posted_on",
                names={o.channel_key: o.channels.table, "author_id": people},
            ),
        ),
        (
            ListView(
                o.folders.table,
                "Drive · Folders",
                ("id", "name", "team", "owner_id"),
                search=("t.id", "t.name"),
                default_sort="name",
                names={"owner_id": people},
            ),
            ListView(
                o.files.table,
                "Drive · Files",
                ("id", "folder_id", "name", "owner_id", key, "size_kb", "created_on", "modified_on"),
                search=("t.id", "t.name"),
                filters=(
                    Filter("folder", "Folder", "t.folder_id"),
                    *((owner, about) if owner_before_subject else (about, owner)),
                ),
                default_sort="modified_on",
                names={"folder_id": o.folders.table, "owner_id": people},
            ),
        ),
        ListView(
            o.mail.table,
            "Mailroom · Messages",
            ("id", "received_on", "sender", "subject", "recipient_id", key, "folder"),
            search=("t.id", "t.sender", "t.subject", "t.body"),
            filters=(
                Filter("folder", "Folder", "t.folder", choices=MAIL_FOLDERS),
                *customer,
                about,
                Filter("recipient", "Recipient", "t.recipient_id"),
                *day_range("received_on"),
            ),
            default_sort="received_on",
            names={"recipient_id": people},
        ),
        ListView(
            o.drafts.table,
            "Memos · Stakeholder drafts",
            ("id", key, "author_id", "audience", "subject", "status", "updated_on"),
            search=("t.id", "t.subject", "t.body"),
            filters=(
                Filter("status", "Status", "t.status", choices=DRAFT_STATUSES),
                Filter("audience", "Audience", "t.audience", choices=vocab.AUDIENCES),
                about,
                *((Filter("author", "Author", "t.author_id"),) if draft_authors else ()),
            ),
            default_sort="updated_on",
            names={"author_id": people},
        ),
        {
            o.channels.table: ((o.posts.table, o.channel, f"Posts in this {o.channel}"),),
            o.folders.table: ((o.files.table, "folder", "Files in this folder"),),
        },
    )
