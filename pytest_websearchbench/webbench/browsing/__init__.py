"""The agent's only surface: a text browser (navigate, click, fill, select, press, scroll, back, read)."""
