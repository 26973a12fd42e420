pytest_plugins = ("pytester",)
