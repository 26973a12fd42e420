"""The run: what pytest drives on top of the families and reports (session, collection, one item, xdist, the reporter)."""
