"""The plugin core: options, suite files, collection, the flow of one item. It knows no family."""
