"""HTML → what an agent sees: title, visible text, interactive elements with ids, and forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

_BLOCK = {
    "p",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "tr",
    "li",
    "table",
    "form",
    "nav",
    "main",
    "section",
    "br",
    "label",
    "thead",
    "tbody",
    "ul",
    "ol",
}
_SKIP = {"script", "style", "head"}


@dataclass
class Element:
    id: str
    kind: str  # link, input, select, textarea, button
    text: str = ""
    href: str | None = None
    name: str | None = None
    type: str | None = None
    value: str = ""
    label: str = ""
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    form: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        for key in ("text", "href", "name", "type", "label"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.kind in ("input", "select", "textarea"):
            out["value"] = self.value
        if self.options:
            out["options"] = [v for v, _ in self.options]
        return out


@dataclass
class Form:
    action: str
    method: str
    hidden: list[tuple[str, str]] = field(default_factory=list)
    controls: list[str] = field(default_factory=list)  # element ids, in order


@dataclass
class ParsedPage:
    title: str
    text: str
    elements: list[Element]
    forms: list[Form]

    def element(self, element_id: str) -> Element | None:
        return next((e for e in self.elements if e.id == element_id), None)


@dataclass
class _Option:
    """An ``<option>`` being read."""

    value: str
    label: str
    selected: bool


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.chunks: list[str] = []
        self.elements: list[Element] = []
        self.forms: list[Form] = []
        self._skip = 0
        self._in_title = False
        self._form: int | None = None
        self._open: Element | None = None  # a link, button, textarea or option whose text is being read
        self._select: Element | None = None
        self._option: _Option | None = None

    def _new(self, kind: str, **kw: Any) -> Element:
        element = Element(f"e{len(self.elements) + 1}", kind, form=self._form, **kw)
        self.elements.append(element)
        if self._form is not None and kind != "link":
            self.forms[self._form].controls.append(element.id)
        return element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag in _SKIP:
            self._skip += 1
        if tag in _BLOCK:
            self.chunks.append("\n")
        elif tag in ("td", "th"):
            self.chunks.append(" | ")
        if tag == "form":
            self.forms.append(Form(a.get("action", ""), a.get("method", "get").lower()))
            self._form = len(self.forms) - 1
        elif tag == "a" and "href" in a:
            self._open = self._new("link", href=a["href"])
        elif tag == "input":
            kind = a.get("type", "text").lower()
            if kind == "hidden":
                if self._form is not None:
                    self.forms[self._form].hidden.append((a.get("name", ""), a.get("value", "")))
            elif kind in ("submit", "button"):
                self._new("button", text=a.get("value", "Submit"), name=a.get("name") or None, type=kind)
            else:
                self._new(
                    "input", name=a.get("name"), type=kind, value=a.get("value", ""), label=a.get("aria-label", "")
                )
        elif tag == "button":
            self._open = self._new("button", name=a.get("name") or None, type=a.get("type", "submit"))
        elif tag == "textarea":
            self._open = self._new("textarea", name=a.get("name"), label=a.get("aria-label", ""))
        elif tag == "select":
            self._select = self._new("select", name=a.get("name"), label=a.get("aria-label", ""))
        elif tag == "option" and self._select is not None:
            self._option = _Option(a.get("value", ""), "", "selected" in a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        if tag in _BLOCK:
            self.chunks.append("\n")
        if tag == "form":
            self._form = None
        elif tag in ("a", "button", "textarea") and self._open is not None:
            if self._open.kind == "textarea":
                self._open.value = self._open.text
                self._open.text = ""
            self._open.text = self._open.text.strip()
            self._open = None
        elif tag == "option" and self._option is not None and self._select is not None:
            option = self._option
            self._select.options.append((option.value, option.label.strip()))
            if option.selected or len(self._select.options) == 1:
                self._select.value = option.value
            self._option = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._skip:
            return
        if self._option is not None:
            self._option.label += data
            return
        if self._open is not None:
            self._open.text += data
            if self._open.kind == "textarea":
                return
        self.chunks.append(data)


def parse(html: str) -> ParsedPage:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    lines = []
    for raw in "".join(parser.chunks).split("\n"):
        line = " ".join(raw.split()).strip(" |")
        if line:
            lines.append(line)
    return ParsedPage(parser.title.strip(), "\n".join(lines), parser.elements, parser.forms)
