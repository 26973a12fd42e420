"""Three invented enterprise vendors and the API changes the ``code-sample`` tickets are about.

Clean-room: the vendors (an IT-service desk, an HR/payroll suite, an ERP), their SDKs, endpoints,
fields and error codes are invented here. Each ``Op`` is one API change between the deprecated
v1 and the current v2 and yields one ticket:

* ``old`` is the starter's body (a real call — documented on the deprecated v1 page and, when
  ``stale``, in a community copy), ``new`` the gold body;
* ``needles`` are the gold tokens; each lives on exactly one page of the sample web: the v2
  reference page, or the vendor's changelog when ``home == "changelog"``;
* ``derived`` rows ship without ``required`` (the loader derives the needles from gold and
  starter; the generator checks it derives exactly ``needles``);
* ``intro``'s first sentence is the v2 page's topic, ``old_intro``'s the v1 page's.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Vendor:
    key: str
    brand: str
    product: str
    api_label: str  # "SDK" or "REST API"
    host: str
    docs_path: str  # "sdk" or "api"
    frame: str  # the code around a ticket's body: {imports}, {fn}, {params}, {body}
    fillers: tuple[str, ...]


@dataclass(frozen=True)
class Op:
    vendor: str
    fn: str
    params: str
    old: str
    new: str
    needles: tuple[str, ...]
    old_tokens: tuple[str, ...]
    ticket: str
    intro: str
    detail: str
    old_intro: str
    changelog: str = ""  # the changelog's entry (holds the needles when home == "changelog")
    derived: bool = False
    home: str = "reference"
    stale: bool = False
    imports: str = ""
    query_forbidden: tuple[str, ...] = ()
    cite_urls: bool = True
    budgets: dict[str, int] = field(default_factory=dict)

    @property
    def topic(self) -> str:
        return self.intro.split(". ")[0].rstrip(".")

    @property
    def old_topic(self) -> str:
        return self.old_intro.split(". ")[0].rstrip(".")


QUILLON = Vendor(
    "quillon",
    "Quillon",
    "Quillon ServiceDesk",
    "SDK",
    "developer.quillon.example",
    "sdk",
    '{imports}from quillon import ServiceDesk\n\ndesk = ServiceDesk(instance="acme-it", token=QUILLON_TOKEN)\n\n\n'
    "def {fn}({params}):\n{body}\n",
    (
        "Every call needs a token with the incident scope of your instance.",
        "Errors are raised as QuillonError with a code such as Q-4001 and a readable message.",
        "The SDK retries calls that hit the rate limit of 600 requests per minute per instance.",
        "Timestamps are returned in UTC as timezone-aware datetime objects.",
        "Install the SDK with pip; version 4 targets API v2 and needs Python 3.9 or later.",
        "Sandbox instances accept the same calls and reset every Sunday night.",
        "Field names follow the API and are case-sensitive.",
        "Calls made with a read-only token fail with Q-4030.",
    ),
)

PAYWRIGHT = Vendor(
    "paywright",
    "Paywright",
    "Paywright",
    "REST API",
    "docs.paywright.example",
    "api",
    '{imports}import requests\n\nAPI = "https://acme.paywright.example/api"\nsession = requests.Session()\n'
    'session.headers["Authorization"] = f"Bearer {{PAYWRIGHT_TOKEN}}"\n\n\n'
    "def {fn}({params}):\n{body}\n",
    (
        "All requests are authenticated with a bearer token created under Settings, Integrations.",
        "Bodies are JSON and dates are ISO 8601 calendar dates.",
        "A request that breaks a payroll rule is answered 422 with a list of problems.",
        "Write requests accept an Idempotency-Key header so that a retry never books twice.",
        "The API is limited to 20 write requests per second per company.",
        "Amounts are decimals in the pay currency of the company.",
        "Every change is written to the audit trail with the token that made it.",
        "Test companies are free and mirror the production API.",
    ),
)

LEDGERLINE = Vendor(
    "ledgerline",
    "Ledgerline",
    "Ledgerline ERP",
    "SDK",
    "help.ledgerline.example",
    "sdk",
    '{imports}from ledgerline import Ledgerline\n\nerp = Ledgerline(company="ACME01", api_key=LEDGERLINE_KEY)\n\n\n'
    "def {fn}({params}):\n{body}\n",
    (
        "The SDK connects to one company at a time; open a second client for another company.",
        "Postings are checked against the chart of accounts before they are saved.",
        "Amounts are Decimal values rounded to the currency's minor unit.",
        "Every write returns the document with its number and audit stamp.",
        "Calls fail with LedgerlineError carrying an LL error code.",
        "A sandbox company can be copied from production once a month.",
        "Batch jobs should page through results instead of loading everything at once.",
        "The SDK is thread-safe; share one client per company in a worker process.",
    ),
)

VENDORS = {v.key: v for v in (QUILLON, PAYWRIGHT, LEDGERLINE)}
COMMUNITY_HOST = "forum.stackpile.example"
COMMUNITY_BRAND = "StackPile"

OPS: tuple[Op, ...] = (
    # ------------------------------------------------------------------ Quillon ServiceDesk (IT service desk)
    Op(
        "quillon",
        "resolve_with_workaround",
        "incident_id, note",
        "return desk.incidents.close(incident_id, close_notes=note)",
        'return desk.incidents.mark_resolved(incident_id, resolution_code="workaround_applied", resolution_note=note)',
        ("mark_resolved", "resolution_code", "workaround_applied", "resolution_note"),
        ("incidents.close", "close_notes"),
        "Our on-call engineers often restore service with a temporary fix before the root cause is known. When "
        "they do, the incident must be recorded as resolved through a workaround rather than closed outright, and "
        "their note has to be kept with the resolution. Update resolve_with_workaround to use the current Quillon "
        "ServiceDesk SDK.",
        "Resolve an incident when service is restored. In SDK v2 an incident fixed with a temporary workaround is "
        "resolved, not closed, and the resolution is recorded with a reason code and the on-call engineer's note.",
        "Use workaround_applied when the root cause is still unknown, permanent_fix when it is known and fixed, "
        "and duplicate_of_problem when the incident is folded into a problem record.",
        "Close an incident. In SDK v1 incidents were closed directly, with closing notes for the record.",
        changelog="Incidents are resolved with a reason code instead of being closed directly.",
        derived=True,
        stale=True,
        query_forbidden=("mark_resolved",),
    ),
    Op(
        "quillon",
        "hand_over",
        "incident_id, team_name",
        "return desk.incidents.update(incident_id, assigned_team=team_name)",
        "return desk.incidents.route_to_queue(incident_id, queue_key=team_name)",
        ("route_to_queue", "queue_key"),
        ("assigned_team",),
        "When the network team takes over an outage, our integration should hand the incident to their queue so "
        "that it shows up on their board, instead of editing the team field. Change hand_over so it uses the "
        "supported call.",
        "Hand an incident over to another team. Since API v2 the owning team is no longer a free-text field: an "
        "incident is routed to a queue, and it then shows up on that team's board.",
        "The queue_key is the short key shown under Settings, Queues, for example NET-OPS. Routing keeps the "
        "current assignee only if the target queue allows it.",
        "Change the owning team of an incident. In SDK v1 the owning team was changed by updating the "
        "assigned_team field.",
        changelog="The owning team is set by routing an incident to a queue.",
        derived=True,
    ),
    Op(
        "quillon",
        "attach_screenshot",
        "incident_id, path",
        "return desk.attachments.add(incident_id, path)",
        'return desk.incidents.upload_evidence(incident_id, file_path=path, visibility="internal_only")',
        ("upload_evidence", "visibility", "internal_only"),
        ("attachments.add",),
        "Screenshots that engineers attach while investigating must stay hidden from the requester in the "
        "self-service portal. Fix attach_screenshot so the file is stored on the incident and only staff can "
        "see it.",
        "Attach a file to an incident as evidence. Files that engineers attach during an investigation can be "
        "hidden from the requester, so that only staff see them in the self-service portal.",
        "Set visibility to internal_only to keep a screenshot or log away from the requester, or to "
        "requester_visible to share it.",
        "Add an attachment. In SDK v1 files were added through the attachments collection and the requester "
        "could always see them.",
        changelog="Attachments moved from the attachments collection to the incident itself.",
        query_forbidden=("upload_evidence",),
    ),
    Op(
        "quillon",
        "open_incidents",
        "position",
        'batch = desk.incidents.list(state="open", page=position)\nreturn batch.items, batch.page + 1',
        'batch = desk.incidents.list(state="open", page_cursor=position)\nreturn batch.items, batch.next_page_cursor',
        ("page_cursor", "next_page_cursor"),
        ("incidents.list", "page="),
        "Our nightly export of open incidents stops after a few thousand records and sometimes returns the same "
        "incident twice. Make open_incidents walk the list the way the current API expects, and return where the "
        "next batch starts.",
        "List incidents in batches for an export. Large exports walk the list with an opaque cursor; numbered "
        "pages were dropped because they skipped and repeated records while incidents changed during the export.",
        "Pass page_cursor from the previous batch's next_page_cursor; it is None on the last batch. A batch "
        "holds at most 500 incidents.",
        "List incidents. In SDK v1 lists came in numbered pages of up to 100 records.",
        changelog="Lists are walked with a cursor; numbered pages are gone.",
        derived=True,
    ),
    Op(
        "quillon",
        "escalate_outage",
        "incident_id",
        "return desk.incidents.update(incident_id, priority=1)",
        'return desk.incidents.set_priority_matrix(incident_id, impact="impact_widespread", '
        'urgency="urgency_immediate")',
        ("set_priority_matrix", "impact_widespread", "urgency_immediate"),
        ("priority=1",),
        "When monitoring detects that checkout is down for all stores, the incident has to jump to the top of "
        "every queue. Priority numbers can no longer be set directly, so update escalate_outage to set the "
        "incident's priority the supported way.",
        "Set an incident's priority from impact and urgency. A priority number can no longer be set directly; an "
        "outage that hits every store gets the top priority when impact and urgency are both at their highest.",
        "Impact is one of impact_single_user, impact_department or impact_widespread; urgency is urgency_low, "
        "urgency_high or urgency_immediate. The resulting priority is read-only.",
        "Set the priority of an incident. In SDK v1 the priority field took a number from 1, the highest, to 5.",
        changelog="Priority numbers are read-only; they follow from impact and urgency.",
    ),
    Op(
        "quillon",
        "raise_for_alert",
        "summary, host_name",
        "return desk.incidents.create(short_description=summary, cmdb_item=host_name)",
        "return desk.incidents.open_incident(summary=summary, affected_asset=host_name)",
        ("open_incident", "affected_asset"),
        ("incidents.create", "cmdb_item"),
        "Alerts from our server monitoring should raise an incident that is linked to the machine that alerted, "
        "so the service map shows the outage on the right host. Fix raise_for_alert; the current SDK rejects the "
        "old call.",
        "Raise an incident for a failing machine. In SDK v2 a new incident names the asset that failed, so that "
        "the service map shows the outage on the right host.",
        "affected_asset takes the asset's hostname or its asset tag; an unknown asset is rejected with error Q-4012.",
        "Create an incident. In SDK v1 incidents were created with a short description and an optional "
        "configuration item.",
        changelog="New incidents name the affected asset.",
        derived=True,
        stale=True,
    ),
    Op(
        "quillon",
        "log_investigation",
        "incident_id, text",
        "return desk.incidents.comment(incident_id, text, public=False)",
        "return desk.incidents.add_work_note(incident_id, body=text)",
        ("add_work_note",),
        ("incidents.comment", "public=False"),
        "Engineers complain that our chatbot's investigation notes end up in the requester's email thread. Notes "
        "written by the bot are for staff only; change log_investigation so it records them as internal notes "
        "with the current SDK.",
        "",
        "",
        "Comment on an incident. In SDK v1 a comment made with public=False stayed internal to the service desk.",
        changelog="Private comments are now work notes: incidents.comment(incident_id, text, public=False) is "
        "removed; call incidents.add_work_note(incident_id, body=text) instead. Work notes are never "
        "emailed to the requester.",
        home="changelog",
    ),
    Op(
        "quillon",
        "verify_webhook",
        "secret, body, headers",
        "expected = hmac.new(secret, body, hashlib.sha1).hexdigest()\n"
        'return hmac.compare_digest(expected, headers["X-Quillon-Signature"])',
        "expected = hmac.new(secret, body, hashlib.sha256).hexdigest()\n"
        'return hmac.compare_digest(expected, headers["X-Quillon-Signature-256"])',
        ("X-Quillon-Signature-256", "sha256"),
        ("X-Quillon-Signature", "sha1"),
        "Security review found that we still verify Quillon webhook calls with a weak digest, and Quillon will "
        "stop sending that signature next quarter. Update verify_webhook to check the signature Quillon sends "
        "today.",
        "Verify webhook signatures. Every webhook call from Quillon carries an HMAC of the raw request body, made "
        "with your webhook secret; compare it in constant time before trusting the payload.",
        "The X-Quillon-Signature-256 header holds the hex HMAC of the body computed with hashlib.sha256. The "
        "older header is no longer sent after 2026-06-30.",
        "Webhooks. In API v1 webhook calls were signed in the X-Quillon-Signature header.",
        changelog="Webhook signatures use a stronger digest in a new header.",
        imports="import hashlib\nimport hmac\n",
    ),
    Op(
        "quillon",
        "missed_sla",
        "incident_id",
        'return desk.sla.get(incident_id)["breached"]',
        "return desk.sla.breach_clock(incident_id).target_missed",
        ("breach_clock", "target_missed"),
        ("sla.get", '["breached"]'),
        "Managers want a red flag on incidents that have already missed the agreed response time. The check in "
        "missed_sla always returns False since the upgrade; fix it against the current SLA API.",
        "Check whether an incident has missed its service level target. The SLA API v2 keeps one clock per "
        "agreed target, response and resolution, and each clock tells whether the agreed time was missed.",
        'breach_clock returns the response clock unless you pass kind="resolution"; target_missed is True once '
        "the agreed time has passed without the event.",
        "Read the SLA status of an incident. In API v1 the SLA record was a dictionary with a breached flag.",
        changelog="SLA status is read from one clock per target.",
        derived=True,
    ),
    Op(
        "quillon",
        "link_to_problem",
        "incident_id, problem_number",
        "return desk.incidents.update(incident_id, problem=problem_number)",
        'return desk.problems.attach_incident(problem_number, incident_id, relation="caused_by")',
        ("problems.attach_incident", "caused_by"),
        ("problem=",),
        "When several outages turn out to have the same underlying cause, our tooling should tie each incident to "
        "the problem record that tracks that cause. Fix link_to_problem; setting a field on the incident no "
        "longer creates the link.",
        "Tie incidents to a problem record. When several outages share one underlying cause, each incident is "
        "linked from the problem record that tracks it; the link is no longer a field on the incident.",
        "relation is caused_by for incidents the problem explains, or related_to for incidents that only share "
        "symptoms.",
        "Point an incident to its problem. In API v1 an incident named its problem record in the problem field.",
        changelog="Problem links are made from the problem record.",
    ),
    Op(
        "quillon",
        "handle_comeback",
        "incident_id, reason",
        'return desk.incidents.update(incident_id, state="open")',
        "return desk.incidents.reopen(incident_id, reopen_reason=reason)",
        ("incidents.reopen", "reopen_reason"),
        ('state="open"',),
        "Requesters sometimes reply that the problem came back a day after we marked it fixed. The portal must put "
        "the incident back into progress and record why; setting the state field directly is now rejected. Fix "
        "handle_comeback.",
        "Put a resolved incident back into progress. When a requester reports that the problem came back, the "
        "incident is taken up again with a reason; writing the state field directly is rejected since API v2.",
        "reopen_reason is required and shown to the assignee. This works within 14 days of the resolution.",
        "Change the state of an incident. In API v1 the state field could be written directly, for example to "
        "open a resolved incident again.",
        changelog="The state field is read-only.",
        cite_urls=False,
        budgets={"searches": 3, "fetches": 2},
    ),
    # ------------------------------------------------------------------ Paywright (HR and payroll)
    Op(
        "paywright",
        "record_resignation",
        "employee_id, last_day",
        'response = session.post(f"{API}/v1/employees/{employee_id}/terminate", json={"last_day": last_day})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/separations", json={"employee_id": employee_id, '
        '"final_work_date": last_day, "separation_type": "voluntary"})\nresponse.raise_for_status()\n'
        "return response.json()",
        ("/v2/separations", "final_work_date", "separation_type"),
        ("/terminate", '"last_day"'),
        "When someone resigns, HR records their last working day in our offboarding tool and Paywright must stop "
        "payroll after that date. The old endpoint now answers 410 Gone. Update record_resignation to register "
        "the departure the current way.",
        "Register an employee's departure. A resignation or dismissal is recorded as a separation: payroll stops "
        "after the final working day and the employee's access is removed the day after.",
        "Send employee_id, final_work_date as an ISO date and separation_type, one of voluntary, involuntary or "
        "retirement. The v1 endpoint answers 410 Gone.",
        "Terminate an employee. In API v1 an employee was terminated with a last day.",
        changelog="Departures are recorded as separations.",
        stale=True,
    ),
    Op(
        "paywright",
        "preview_payroll",
        "period",
        'response = session.post(f"{API}/v1/payroll/run", json={"period": period})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/pay-runs", json={"pay_period": period, "dry_run": True})\n'
        "response.raise_for_status()\nreturn response.json()",
        ("/v2/pay-runs", "pay_period", "dry_run"),
        ("/v1/payroll/run",),
        "Finance wants to see next month's payroll totals before anything is paid out. Change preview_payroll so "
        "it asks Paywright for a preview calculation of the period instead of starting a real payroll.",
        "Calculate a pay run as a preview. A pay run can be calculated without paying anyone: the totals and "
        "payslips are computed, but nothing is sent to the bank.",
        "Send pay_period as YYYY-MM and dry_run as true for a preview; a preview expires after 24 hours.",
        "Run payroll. In API v1 posting a period started the payroll at once; there was no preview.",
        changelog="Payroll runs can be calculated as previews.",
    ),
    Op(
        "paywright",
        "change_bank_details",
        "employee_id, iban",
        'response = session.put(f"{API}/v1/employees/{employee_id}/bank", json={"iban": iban})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/employees/{employee_id}/payment-methods", '
        'json={"iban": iban, "requires_dual_approval": True})\nresponse.raise_for_status()\nreturn response.json()',
        ("/payment-methods", "requires_dual_approval"),
        ("/bank",),
        "Payroll fraud attempts often start with a changed bank account. New bank details entered in our employee "
        "portal must wait for a second approver before the next salary goes there. Fix change_bank_details.",
        "Change where an employee's salary is paid. New bank details are added as a payment method and, to guard "
        "against payroll fraud, can wait for a second approver before the next salary goes there.",
        "Set requires_dual_approval to true; the employee keeps being paid to the old account until the change is "
        "approved.",
        "Replace bank details. In API v1 the bank account of an employee was replaced in place with PUT.",
        changelog="Bank accounts are payment methods with an approval step.",
    ),
    Op(
        "paywright",
        "book_holiday",
        "employee_id, start, end",
        'response = session.post(f"{API}/v1/leave", json={"employee": employee_id, "from": start, "to": end})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/absences", json={"employee_id": employee_id, "starts_on": start, '
        '"ends_on": end, "absence_kind": "annual_leave"})\nresponse.raise_for_status()\nreturn response.json()',
        ("/v2/absences", "absence_kind", "annual_leave"),
        ("/v1/leave",),
        "Holiday requests from our team calendar app land in Paywright as unpaid leave, so people lose pay. Make "
        "book_holiday file the request as paid vacation with the current API.",
        "Request time off. Holidays, sick days and parental leave are absences; each absence has a kind, and a "
        "request without one is booked as unpaid leave.",
        "absence_kind is annual_leave for paid vacation, sick_leave, parental_leave or unpaid_leave, the default. "
        "Dates are given as starts_on and ends_on.",
        "Request leave. In API v1 leave requests took an employee and a date range.",
        changelog="Leave requests are absences with a kind.",
        stale=True,
    ),
    Op(
        "paywright",
        "list_staff",
        "company_id",
        'response = session.get(f"{API}/v1/employees", headers={"X-Company": company_id})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.get(f"{API}/v2/employees", headers={"Paywright-Tenant": company_id})\n'
        "response.raise_for_status()\nreturn response.json()",
        ("Paywright-Tenant",),
        ("X-Company",),
        "Since the Paywright upgrade, our headcount report only ever shows the parent company, never the "
        "subsidiaries. Fix list_staff so the request names the company it is about in the way Paywright expects "
        "now.",
        "",
        "",
        "List employees. In API v1 the company of a multi-company account was chosen with the X-Company header.",
        changelog="Multi-company accounts: the X-Company header is ignored; send the company in the "
        "Paywright-Tenant header. Requests without it act on the parent company.",
        home="changelog",
    ),
    Op(
        "paywright",
        "fetch_payslip_pdf",
        "payslip_id",
        'response = session.get(f"{API}/v1/payslips/{payslip_id}.pdf")\nresponse.raise_for_status()\n'
        "return response.content",
        'response = session.get(f"{API}/v2/payslips/{payslip_id}/rendition", params={"archival": "pdf_a3"})\n'
        "response.raise_for_status()\nreturn response.content",
        ("/rendition", "pdf_a3"),
        ("{payslip_id}.pdf",),
        "Our document archive rejects payslips because they are not in a long-term archival PDF format. Update "
        "fetch_payslip_pdf to download the archival version from Paywright.",
        "Download a payslip for archiving. Payslips are rendered on request; for long-term archiving ask for the "
        "archival PDF, which embeds fonts and metadata as archives require.",
        "Ask for the archival parameter pdf_a3; without it you get an ordinary PDF.",
        "Download a payslip. In API v1 payslips were plain PDF files.",
        changelog="Payslips are rendered on request, including an archival PDF.",
    ),
    Op(
        "paywright",
        "watch_new_hires",
        "target",
        'response = session.post(f"{API}/v1/hooks", json={"url": target, "event": "employee.created"})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/event-subscriptions", json={"callback_url": target, '
        '"event_types": ["worker.hired"]})\nresponse.raise_for_status()\nreturn response.json()',
        ("/v2/event-subscriptions", "callback_url", "worker.hired"),
        ("/v1/hooks", "employee.created"),
        "IT wants a laptop ordered as soon as a new person is hired, not when their employee record is typed in "
        "weeks later. Change watch_new_hires to subscribe our endpoint to the hiring event in Paywright.",
        "Subscribe to events. Paywright calls your endpoint when something happens, for example when a candidate "
        "is hired, which can be weeks before the employee record is complete.",
        "Subscribe with callback_url and a list of event_types such as worker.hired or payrun.completed.",
        "Register a hook. In API v1 a hook fired on record events such as employee.created.",
        changelog="Hooks are replaced by event subscriptions.",
    ),
    Op(
        "paywright",
        "send_overtime",
        "employee_id, hours",
        'response = session.post(f"{API}/v1/timesheets", json={"employee": employee_id, "hours": hours})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/time-entries:batch", json={"entries": [{"employee_id": employee_id, '
        '"quantity": hours, "earning_code": "OT150"}]})\nresponse.raise_for_status()\nreturn response.json()',
        ("/v2/time-entries:batch", "earning_code", "OT150"),
        ("/v1/timesheets",),
        "Overtime logged in our shift planner is paid at the normal hourly rate. The planner sends the extra hours "
        "to Paywright once a week; update send_overtime so those hours are paid with the time-and-a-half premium.",
        "Import worked hours from a planner. Hours are sent in batches of time entries; each entry says how the "
        "hours are paid, and entries without a pay code are paid at the normal hourly rate.",
        "earning_code selects the pay: REG for normal hours, OT150 for time-and-a-half and OT200 for double "
        "time. Send up to 500 entries per batch.",
        "Submit a timesheet. In API v1 timesheets carried a number of hours and were paid at the regular rate.",
        changelog="Worked hours are imported as batches of time entries.",
    ),
    Op(
        "paywright",
        "apply_raise",
        "employee_id, amount, start",
        'response = session.patch(f"{API}/v1/employees/{employee_id}", json={"salary": amount})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/employees/{employee_id}/compensation-changes", '
        'json={"annual_base": amount, "effective_from": start})\nresponse.raise_for_status()\nreturn response.json()',
        ("/compensation-changes", "annual_base", "effective_from"),
        ('"salary"',),
        "Raises agreed in the annual review must only apply from the first of next month, but our tool changes the "
        "salary immediately and back-pays people. Fix apply_raise so the new pay starts on the agreed date.",
        "Change an employee's pay from a date. A raise is recorded as a dated change of compensation; payroll "
        "before that date keeps the old pay, so nothing is back-paid by accident.",
        "Send annual_base in the pay currency and effective_from as an ISO date.",
        "Update an employee's salary. In API v1 the salary field of an employee was patched and applied at once.",
        changelog="Pay changes are dated compensation changes.",
    ),
    Op(
        "paywright",
        "move_to_department",
        "employee_id, code",
        'response = session.patch(f"{API}/v1/employees/{employee_id}", json={"cost_center": code})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/employees/{employee_id}/allocations", '
        'json={"splits": [{"cost_center_id": code, "percent": 100}]})\nresponse.raise_for_status()\n'
        "return response.json()",
        ("/allocations", "cost_center_id"),
        ('"cost_center"',),
        "Finance moved people between departments in the new budget, but their salaries still hit the old "
        "department's budget. Update move_to_department so payroll costs are charged to the new one.",
        "Charge payroll costs to a department. Salary costs are split across cost centers by percentage; a new "
        "split replaces the previous one from the next pay run.",
        "Each split holds a cost_center_id and a percent, and the percents add up to 100.",
        "Set an employee's cost center. In API v1 the cost_center field of an employee was patched directly.",
        changelog="Payroll costs are allocated to cost centers in splits.",
    ),
    Op(
        "paywright",
        "enroll_health_plan",
        "employee_id, plan",
        'response = session.post(f"{API}/v1/benefits", json={"employee": employee_id, "plan": plan})\n'
        "response.raise_for_status()\nreturn response.json()",
        'response = session.post(f"{API}/v2/benefit-elections", json={"employee_id": employee_id, '
        '"plan_code": plan, "coverage_tier": "employee_plus_family"})\nresponse.raise_for_status()\n'
        "return response.json()",
        ("/v2/benefit-elections", "coverage_tier", "employee_plus_family"),
        ("/v1/benefits",),
        "Employees who add their partner and children to health insurance in our portal end up insured alone. "
        "Fix enroll_health_plan so the whole family is covered.",
        "Enroll an employee in a benefit plan. An election says which plan the employee chose and who it covers; "
        "without a tier only the employee is insured.",
        "The tier is employee_only, employee_plus_partner or employee_plus_family.",
        "Enroll in benefits. In API v1 an enrollment named the employee and a plan and covered the employee alone.",
        changelog="Benefit enrollments are elections with a coverage tier.",
        cite_urls=False,
        budgets={"turns": 12, "searches": 3},
    ),
    # ------------------------------------------------------------------ Ledgerline ERP
    Op(
        "ledgerline",
        "book_supplier_bill",
        "vendor_id, amount",
        "return erp.invoices.create(vendor=vendor_id, amount=amount)",
        "return erp.payables.register_bill(supplier_id=vendor_id, gross_amount=amount)",
        ("payables", "register_bill", "supplier_id", "gross_amount"),
        ("invoices.create",),
        "Supplier bills scanned by our mailroom are booked as customer invoices, so the ledger shows money coming "
        "in instead of going out. Fix book_supplier_bill to record what we owe the supplier with the current "
        "Ledgerline SDK.",
        "Record a bill from a supplier. Money you owe is booked in accounts payable as a bill, not as a customer "
        "invoice; a bill carries the supplier and the amount including tax.",
        "register_bill returns the bill as a draft; gross_amount includes tax and supplier_id is the supplier's "
        "number.",
        "Create an invoice. In SDK v1 customer invoices and supplier bills were both created with invoices.create.",
        changelog="Supplier bills are booked in accounts payable.",
        derived=True,
        stale=True,
    ),
    Op(
        "ledgerline",
        "request_approval",
        "po_number",
        'return erp.purchase_orders.update(po_number, status="approved")',
        'return erp.purchase_orders.submit_for_approval(po_number, approval_route="two_step")',
        ("submit_for_approval", "approval_route", "two_step"),
        ('status="approved"',),
        "Auditors found purchase orders that were approved by the same person who raised them. Orders above the "
        "limit must go through a second approver; change request_approval so the order follows the approval "
        "workflow instead of being set to approved.",
        "Send a purchase order for approval. Since SDK v2 an order cannot be set to approved directly; it enters "
        "an approval workflow, so the person who raised it cannot approve it.",
        "approval_route is single_step or two_step; orders above the company's limit need two_step.",
        "Approve a purchase order. In SDK v1 the status of an order could be set to approved with update.",
        changelog="Purchase orders are approved through a workflow.",
        derived=True,
    ),
    Op(
        "ledgerline",
        "sellable_stock",
        "sku, warehouse",
        'return erp.items.get(sku)["qty"]',
        "return erp.stock_ledger.on_hand_quantities(sku, site_code=warehouse).free_to_sell",
        ("stock_ledger", "on_hand_quantities", "site_code", "free_to_sell"),
        ('["qty"]',),
        "The web shop keeps selling products that are already reserved for other orders, because it reads the raw "
        "stock count. Fix sellable_stock so it returns only what can still be sold from the given warehouse.",
        "Read the sellable stock of an item. Quantities are kept per warehouse; the raw count includes "
        "units already reserved for open orders, the sellable figure does not.",
        "on_hand_quantities takes the item's SKU and the warehouse's site_code and returns physical, reserved "
        "and free_to_sell quantities from the stock_ledger.",
        "Read an item's stock. In SDK v1 the item record had a qty field with the stock on hand.",
        changelog="Stock is read per warehouse, with reserved units apart.",
        derived=True,
    ),
    Op(
        "ledgerline",
        "post_euro_entry",
        "account, amount",
        'return erp.journal.post(account, amount, currency="EUR")',
        'return erp.journal.post(account, amount, transaction_currency="EUR", rate_source="central_bank_daily")',
        ("transaction_currency", "rate_source", "central_bank_daily"),
        ('currency="EUR"',),
        "Journal entries we post in euros are converted at a rate someone typed in last year. Update "
        "post_euro_entry so Ledgerline converts each entry at the official daily rate.",
        "Post a journal entry in a foreign currency. An entry in another currency than the company's is "
        "converted with a rate from a named source; without one, the manual rate table is used.",
        "transaction_currency is the ISO code; rate_source is manual_table, the default, or central_bank_daily.",
        "Post a journal entry. In SDK v1 the currency argument named the entry's currency and the manual rate "
        "table converted it.",
        changelog="Foreign-currency entries name their rate source.",
    ),
    Op(
        "ledgerline",
        "stop_ordering",
        "customer_id",
        "return erp.customers.update(customer_id, blocked=True)",
        'return erp.receivables.place_credit_hold(customer_id, hold_reason="overdue_balance")',
        ("receivables", "place_credit_hold", "hold_reason", "overdue_balance"),
        ("blocked=True",),
        "Customers who are more than 60 days late on payment can still place orders in our shop. Change "
        "stop_ordering so that Ledgerline blocks new orders for that customer and records why.",
        "Stop new orders for a customer who is late paying. A credit hold blocks new sales orders until it is "
        "released, and it records why it was placed.",
        "place_credit_hold takes the customer and a hold_reason such as overdue_balance, credit_limit_exceeded or "
        "disputed_invoice; holds live in erp.receivables.",
        "Block a customer. In SDK v1 a customer was blocked with blocked=True, which also stopped deliveries of "
        "orders already placed.",
        changelog="Late payers are stopped with a credit hold.",
        derived=True,
        stale=True,
    ),
    Op(
        "ledgerline",
        "close_month",
        "year, month",
        "return erp.periods.close(year, month)",
        'return erp.periods.lock(year, month, lock_scope="all_subledgers")',
        ("periods.lock", "lock_scope", "all_subledgers"),
        ("periods.close",),
        "After month-end, people still manage to post receipts and bills into the closed month. Change close_month "
        "so that nothing, in any sub-ledger, can be posted into the month once it is closed.",
        "",
        "",
        "Close a period. In SDK v1 periods.close closed the general ledger for the month.",
        changelog="Periods: periods.close(year, month) only closed the general ledger; call periods.lock(year, "
        'month, lock_scope="all_subledgers") to stop postings from every sub-ledger too.',
        home="changelog",
    ),
    Op(
        "ledgerline",
        "place_order",
        "customer_id, lines, date",
        "return erp.sales_orders.create(customer_id, lines, ship_date=date)",
        'return erp.sales_orders.create(customer_id, lines, requested_delivery=date, delivery_terms="DAP")',
        ("requested_delivery", "delivery_terms"),
        ("ship_date",),
        "Customers choose the day they want their goods to arrive, but the warehouse ships on that day and the "
        "goods come late. Fix place_order so the date is treated as the arrival date at the customer's site.",
        "Create a sales order with the customer's arrival date. The warehouse schedules picking and shipping "
        "backwards from the day the customer wants the goods to arrive.",
        "requested_delivery is the arrival date at the customer; delivery_terms takes an Incoterms code such as "
        "DAP or EXW.",
        "Create a sales order. In SDK v1 ship_date was the day the goods left the warehouse.",
        changelog="Sales orders carry the customer's arrival date.",
        derived=True,
    ),
    Op(
        "ledgerline",
        "add_laptop",
        "name, cost",
        "return erp.assets.create(name, cost, years=5)",
        "return erp.fixed_assets.capitalize(name, acquisition_cost=cost, useful_life_months=60, "
        'depreciation_method="straight_line")',
        ("fixed_assets.capitalize", "useful_life_months", "straight_line"),
        ("assets.create", "years=5"),
        "Laptops we buy are written off in a single month instead of over five years, which wrecks the monthly "
        "results. Fix add_laptop so the purchase is capitalised and written down evenly over its life.",
        "Capitalise a purchase as a fixed asset. Equipment is written down over its useful life rather than "
        "expensed in the month it was bought; the method decides how the write-down is spread.",
        "useful_life_months replaces the years argument of SDK v1; depreciation_method is straight_line or "
        "declining_balance.",
        "Create an asset. In SDK v1 assets.create took a life in years and expensed cheap items at once.",
        changelog="Assets are capitalised with a life in months.",
    ),
    Op(
        "ledgerline",
        "load_statement",
        "account_id, path",
        'return erp.bank.import_file(account_id, path, format="csv")',
        'return erp.cash_management.import_statement(account_id, path, statement_format="camt053")',
        ("cash_management", "import_statement", "statement_format", "camt053"),
        ("bank.import_file",),
        "Our bank stopped offering the comma-separated export, so statements have to be loaded from the bank's "
        "standard XML file. Update load_statement so Ledgerline reads that file and matches the payments.",
        "Load a bank statement for reconciliation. Statements are loaded from the bank's standard XML file and "
        "each payment is matched against open bills and invoices.",
        "statement_format is camt053 for the standard XML statement or mt940 for the older text format; CSV "
        "imports were removed from cash_management.",
        "Import a bank file. In SDK v1 bank files were imported as CSV with bank.import_file.",
        changelog="Bank statements are loaded from the standard XML file.",
        derived=True,
    ),
    Op(
        "ledgerline",
        "add_supplier",
        "name, vat_id",
        "return erp.vendors.create(name=name, vat=vat_id)",
        "return erp.supplier_master.enroll_supplier(legal_name=name, tax_registration=vat_id)",
        ("supplier_master", "enroll_supplier", "legal_name", "tax_registration"),
        ("vendors.create",),
        "New suppliers entered by purchasing are rejected by Ledgerline because their VAT number is not checked. "
        "Fix add_supplier so the supplier is created with its registered company name and the tax number is "
        "validated.",
        "Add a supplier with a checked tax number. New suppliers are enrolled with their registered company name, "
        "and the tax number is checked against the tax authority's register.",
        "enroll_supplier takes legal_name and tax_registration; an invalid number is rejected with error LL-2207.",
        "Create a vendor. In SDK v1 vendors.create accepted any VAT number without a check.",
        changelog="Suppliers are enrolled with a checked tax number.",
        derived=True,
    ),
)
