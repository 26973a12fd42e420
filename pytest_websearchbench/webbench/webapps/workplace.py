"""The ``workplace`` world's apps: Deskline (customers, contacts, escalations), Sprintboard (issues,
sprints), People (engineers, certifications), Rota (free blocks, on-call days), the office apps
around them (Approvals, Channels, Contracts, Drive, Mailroom, Memos, Partners, Wiki) and Decision.
Same page constructs as every world (:mod:`.apps`, :mod:`.render`); the lists of Channels, Drive,
Mailroom and Memos' drafts are made by :mod:`.office` from the world's declaration, with the filters
only this world's lists have."""

from __future__ import annotations

import sqlite3

from pytest_websearchbench.webbench.webapps.apps import AppSet, Filter, Linked, ListView, day_range
from pytest_websearchbench.webbench.webapps.office import office_lists
from pytest_websearchbench.webbench.webapps.render import Page, list_url, text
from pytest_websearchbench.webbench.world import vocab
from pytest_websearchbench.webbench.world import workplace_office as office
from pytest_websearchbench.webbench.world.office import WORKPLACE_OFFICE
from pytest_websearchbench.webbench.world.schema import WORKPLACE

#: Channels, Drive, Mailroom and Memos' drafts: what this world's lists filter by beyond the others'
_OFFICE = office_lists(
    WORKPLACE_OFFICE, channel_teams=vocab.TEAMS, dated_posts=True, owner_before_subject=True, draft_authors=True
)
LISTS: dict[str, ListView] = {
    v.table: v
    for v in (
        ListView(
            "escalations",
            "Deskline · Escalations",
            ("id", "customer_id", "product", "severity", "status", "opened_on", "due_on"),
            search=("t.id", "t.title", "t.product", "(SELECT name FROM customers c WHERE c.id = t.customer_id)"),
            filters=(
                Filter("status", "Status", "t.status", choices=vocab.ESCALATION_STATUSES),
                Filter("severity", "Severity", "t.severity", choices=vocab.SEVERITIES),
                Filter("product", "Product", "t.product", choices=vocab.PRODUCTS),
            ),
            names={"customer_id": "customers"},
        ),
        ListView(
            "customers",
            "Deskline · Customers",
            ("id", "name", "region", "tier"),
            search=("t.id", "t.name"),
            default_sort="name",
        ),
        ListView(
            "issues",
            "Sprintboard · Issues",
            ("id", "title", "type", "status", "story_points", "sprint_id", "assignee_id", "escalation_id"),
            search=("t.id", "t.title"),
            filters=(
                Filter("status", "Status", "t.status", choices=vocab.ISSUE_STATUSES),
                Filter("type", "Type", "t.type", choices=vocab.ISSUE_TYPES),
                Filter("sprint", "Sprint", "t.sprint_id"),
                Filter("escalation", "Escalation", "t.escalation_id"),
                Filter("assignee", "Assignee", "t.assignee_id"),
            ),
            names={"assignee_id": "engineers"},
        ),
        ListView(
            "sprints",
            "Sprintboard · Sprints",
            ("id", "name", "starts_on", "ends_on", "capacity_points", "state"),
            filters=(Filter("state", "State", "t.state", choices=("closed", "active", "planned")),),
        ),
        ListView(
            "engineers",
            "People · Engineers",
            ("id", "name", "team", "hourly_rate_usd"),
            search=("t.id", "t.name", "t.team", "t.email"),
            default_sort="name",
        ),
        ListView(
            "certifications",
            "People · Certifications",
            ("id", "engineer_id", "skill", "level", "certified_on"),
            filters=(
                Filter("skill", "Skill", "t.skill", choices=vocab.PRODUCTS),
                Filter("min_level", "Minimum level", "t.level", ">=", ("1", "2", "3"), "number"),
                Filter("engineer", "Engineer", "t.engineer_id"),
            ),
            names={"engineer_id": "engineers"},
        ),
        ListView(
            "blocks",
            "Rota · Free blocks",
            ("id", "engineer_id", "day", "starts_at", "minutes", "status", "booked_for"),
            filters=(
                Filter("engineer", "Engineer", "t.engineer_id"),
                Filter("status", "Status", "t.status", choices=vocab.BLOCK_STATUSES),
                *day_range("day"),
                Filter("min_minutes", "Minimum minutes", "t.minutes", ">=", kind="number"),
            ),
            default_sort="day",
            names={"engineer_id": "engineers"},
        ),
        ListView(
            "oncall",
            "Rota · On-call days",
            ("id", "engineer_id", "day"),
            filters=(
                Filter("engineer", "Engineer", "t.engineer_id"),
                *day_range("day"),
            ),
            default_sort="day",
            names={"engineer_id": "engineers"},
        ),
        ListView(
            "contacts",
            "Deskline · Contacts",
            ("id", "customer_id", "name", "role", "email"),
            search=("t.id", "t.name", "t.email", "(SELECT name FROM customers c WHERE c.id = t.customer_id)"),
            filters=(Filter("customer", "Customer", "t.customer_id"),),
            default_sort="name",
            names={"customer_id": "customers"},
        ),
        ListView(
            "approval_requests",
            "Approvals · Requests",
            ("id", "escalation_id", "requester_id", "kind", "amount_usd", "status", "requested_on", "updated_on"),
            search=("t.id", "t.kind", "t.escalation_id"),
            filters=(
                Filter("status", "Status", "t.status", choices=office.APPROVAL_STATUSES),
                Filter("kind", "Kind", "t.kind", choices=office.APPROVAL_KINDS),
                Filter("escalation", "Escalation", "t.escalation_id"),
                *day_range("requested_on"),
            ),
            default_sort="requested_on",
            names={"requester_id": "engineers"},
        ),
        ListView(
            "approval_steps",
            "Approvals · Steps",
            ("id", "request_id", "step", "approver_id", "outcome", "acted_on"),
            filters=(
                Filter("request", "Request", "t.request_id"),
                Filter("approver", "Approver", "t.approver_id"),
                Filter("outcome", "Outcome", "t.outcome", choices=("approved", "rejected", "waiting")),
            ),
            default_sort="acted_on",
            names={"approver_id": "engineers"},
        ),
        *_OFFICE.channels,
        ListView(
            "contracts",
            "Contracts · Register",
            ("id", "customer_id", "title", "value_usd", "status", "signed_on", "renews_on"),
            search=("t.id", "t.title", "(SELECT name FROM customers c WHERE c.id = t.customer_id)"),
            filters=(
                Filter("status", "Status", "t.status", choices=office.CONTRACT_STATUSES),
                Filter("customer", "Customer", "t.customer_id"),
            ),
            default_sort="signed_on",
            names={"customer_id": "customers"},
        ),
        ListView(
            "sla_terms",
            "Contracts · Service terms",
            ("id", "contract_id", "product", "response_hours", "credit_pct"),
            filters=(
                Filter("contract", "Contract", "t.contract_id"),
                Filter("product", "Product", "t.product", choices=vocab.PRODUCTS),
            ),
        ),
        *_OFFICE.drive,
        _OFFICE.mail,
        ListView(
            "mail_attachments",
            "Mailroom · Attachments",
            ("id", "mail_id", "file_id", "name"),
            search=("t.id", "t.name"),
            filters=(Filter("mail", "Message", "t.mail_id"),),
        ),
        _OFFICE.drafts,
        ListView(
            "memo_reviews",
            "Memos · Reviews",
            ("id", "memo_id", "reviewer_id", "verdict", "reviewed_on"),
            filters=(Filter("memo", "Draft", "t.memo_id"), Filter("reviewer", "Reviewer", "t.reviewer_id")),
            default_sort="reviewed_on",
            names={"reviewer_id": "engineers"},
        ),
        ListView(
            "partners",
            "Partners · Partners",
            ("id", "name", "service", "region"),
            search=("t.id", "t.name"),
            filters=(
                Filter("service", "Service", "t.service", choices=vocab.PARTNER_SERVICES),
                Filter("region", "Region", "t.region", choices=vocab.REGIONS),
            ),
            default_sort="name",
        ),
        ListView(
            "confirmations",
            "Partners · Confirmations",
            ("id", "partner_id", "escalation_id", "status", "requested_on", "answer_by", "reference"),
            search=("t.id", "t.reference"),
            filters=(
                Filter("status", "Status", "t.status", choices=office.CONFIRMATION_STATUSES),
                Filter("partner", "Partner", "t.partner_id"),
                Filter("escalation", "Escalation", "t.escalation_id"),
            ),
            default_sort="requested_on",
            names={"partner_id": "partners"},
        ),
        ListView(
            "wiki_pages",
            "Wiki · Pages",
            ("id", "title", "team", "owner_id", "updated_on"),
            search=("t.id", "t.title", "t.body"),
            filters=(Filter("team", "Team", "t.team", choices=vocab.TEAMS),),
            default_sort="title",
            names={"owner_id": "engineers"},
        ),
        ListView(
            "wiki_edits",
            "Wiki · Edits",
            ("id", "page_id", "editor_id", "edited_on", "summary"),
            filters=(Filter("page", "Page", "t.page_id"), Filter("editor", "Editor", "t.editor_id")),
            default_sort="edited_on",
            names={"editor_id": "engineers"},
        ),
        ListView("decisions", "Decision · Recorded decisions", ("id", "decision", "abstain_reason", "escalation_id")),
    )
}

SUBNAV = {
    "deskline": ("escalations", "customers", "contacts"),
    "sprintboard": ("issues", "sprints"),
    "people": ("engineers", "certifications"),
    "rota": ("blocks", "oncall"),
    "approvals": ("approval_requests", "approval_steps"),
    "channels": ("chat_posts", "channels"),
    "contracts": ("contracts", "sla_terms"),
    "drive": ("files", "folders"),
    "mailroom": ("mail", "mail_attachments"),
    "memos": ("memos", "memo_reviews"),
    "partners": ("confirmations", "partners"),
    "wiki": ("wiki_pages", "wiki_edits"),
    "decision": ("decisions",),
}

#: table → (list, filter, link text): the lists a record page links to, filtered to that record
_LINKED: Linked = {
    **_OFFICE.linked,
    "customers": (
        ("contacts", "customer", "Contacts of this customer"),
        ("contracts", "customer", "Contracts in Contracts"),
        ("mail", "customer", "Mail from this customer"),
    ),
    "escalations": (
        ("mail", "escalation", "Mail about this escalation"),
        ("chat_posts", "escalation", "Chat posts about this escalation"),
        ("memos", "escalation", "Stakeholder drafts about this escalation"),
        ("approval_requests", "escalation", "Approval requests for this escalation"),
        ("confirmations", "escalation", "Partner confirmations for this escalation"),
        ("files", "escalation", "Files in Drive"),
    ),
    "approval_requests": (("approval_steps", "request", "Steps of this request"),),
    "contracts": (("sla_terms", "contract", "Service terms of this contract"),),
    "mail": (("mail_attachments", "mail", "Attachments of this message"),),
    "memos": (("memo_reviews", "memo", "Reviews of this draft"),),
    "partners": (("confirmations", "partner", "Confirmations from this partner"),),
    "wiki_pages": (("wiki_edits", "page", "Edit history of this page"),),
}


def _related(page: Page, con: sqlite3.Connection, table: str, row: sqlite3.Row) -> None:
    pk = row["id"]
    if table == "customers":
        esc = con.execute("SELECT * FROM escalations WHERE customer_id = ? ORDER BY opened_on, id", (pk,)).fetchall()
        page.add("<h2>Escalations</h2>")
        page.table(
            ["Escalation", "Product", "Severity", "Status", "Opened on"],
            [
                [
                    page.record("escalations", r["id"]),
                    text(r["product"]),
                    text(r["severity"]),
                    text(r["status"]),
                    text(r["opened_on"]),
                ]
                for r in esc
            ],
        )
    elif table == "escalations":
        issues = con.execute("SELECT * FROM issues WHERE escalation_id = ? ORDER BY id", (pk,)).fetchall()
        page.add("<h2>Linked issues</h2>")
        page.table(
            ["Issue", "Title", "Type", "Status", "Story points"],
            [
                [
                    page.record("issues", r["id"]),
                    text(r["title"]),
                    text(r["type"]),
                    text(r["status"]),
                    text(r["story_points"]),
                ]
                for r in issues
            ],
        )
    elif table == "sprints":
        page.link("Issues in this sprint", list_url("issues", sprint=pk))
    elif table == "engineers":
        certs = con.execute("SELECT * FROM certifications WHERE engineer_id = ? ORDER BY skill", (pk,)).fetchall()
        page.add("<h2>Certifications</h2>")
        page.table(
            ["Certification", "Skill", "Level", "Certified on"],
            [
                [page.record("certifications", r["id"]), text(r["skill"]), text(r["level"]), text(r["certified_on"])]
                for r in certs
            ],
        )
        page.link("Free blocks in Rota", list_url("blocks", engineer=pk, status="free"))
        page.link("On-call days in Rota", list_url("oncall", engineer=pk))
        page.link("Assigned issues in Sprintboard", list_url("issues", assignee=pk))


WORKPLACE_APPS = AppSet(
    WORKPLACE,
    LISTS,
    SUBNAV,
    {
        "escalations": ("edit", "Edit escalation"),
        "issues": ("edit", "Edit issue"),
        "blocks": ("book", "Book this block"),
        "approval_requests": ("edit", "Decide this request"),
        "memos": ("edit", "Edit this draft"),
        "confirmations": ("edit", "Record the partner's answer"),
    },
    _related,
    "Apps: Deskline (customer escalations and contacts), Sprintboard (issues and sprints), People (engineers and "
    "certifications), Rota (free blocks and on-call days), Approvals (approval requests and their steps), Channels "
    "(team chat), Contracts (the contract register and service terms), Drive (shared files), Mailroom (the mailbox), "
    "Memos (stakeholder drafts and reviews), Partners (partner confirmations), Wiki (the team handbook), Decision "
    "(record a structured decision).",
    linked=_LINKED,
)
