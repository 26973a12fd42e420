"""A manifest's ``fields``: which column of a published dataset holds each of the family's fields.

A benchmark's published rows need not use the family's field names (``{"id": "scenario_id", "family":
"search_family"}``). With a map, each row becomes the family's record: every field of the family's
schema taken from its mapped column (an unmapped field from the column of its own name); columns the
schema does not name are left out, unless the schema lets records carry other fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError


@dataclass(frozen=True)
class FieldMap:
    columns: Mapping[str, str]  # the family's field → the dataset's column
    schema: Mapping[str, Any]  # the family's record schema (JSON Schema)

    @classmethod
    def checked(cls, columns: Any, schema: Mapping[str, Any], manifest: Path) -> FieldMap:
        """The manifest's map; a field the schema does not know, or a column given twice, is a SuiteError."""
        if not isinstance(columns, dict) or not all(isinstance(c, str) and c for c in columns.values()):
            raise SuiteError(manifest, "expected an object of field → column names", field="fields")
        known = schema.get("properties", {})
        for field in columns:
            if field not in known:
                raise SuiteError(
                    manifest,
                    f"the items have no field {field!r}; their fields: {', '.join(known)}",
                    field=f"fields.{field}",
                )
        seen: dict[str, str] = {}
        for field, column in columns.items():
            if column in seen:
                raise SuiteError(
                    manifest,
                    f"column {column!r} is mapped to both {seen[column]!r} and {field!r}",
                    field=f"fields.{field}",
                )
            seen[column] = field
        return cls(dict(columns), schema)

    def apply(self, row: Any, path: Path, line: int | None) -> Any:
        """The family's record from the dataset's ``row``; a required field whose column the row lacks is a
        SuiteError naming the column it looked for. A row that is no object is left to the schema check."""
        if not isinstance(row, dict):
            return row
        fields = self.schema.get("properties", {})
        record = {}
        for field in fields:
            column = self.columns.get(field, field)
            if column in row:
                record[field] = row[column]
            elif field in self.schema.get("required", ()):
                how = (
                    'as the manifest\'s "fields" maps it'
                    if field in self.columns
                    else "its own name; map it to the dataset's column in the manifest's \"fields\""
                )
                raise SuiteError(
                    path,
                    f"no column {column!r} for the required field {field!r} ({how}); the row's "
                    f"columns: {', '.join(sorted(map(str, row)))}",
                    line=line,
                    field=field,
                )
        if self.schema.get("additionalProperties", True) is not False:
            mapped = set(self.columns.values())
            record.update({k: v for k, v in row.items() if k not in mapped and k not in fields})
        return record
