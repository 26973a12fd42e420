"""Loopback stand-ins for the services a run calls: every built-in provider's API (``server.Emulator``, from
a page corpus or the embedded engine's index, with faults, latency and a window rate limit on demand) and an
OpenAI-compatible model that answers from a script (``model.ScriptedModel``: the Responses API and Chat
Completions). ``wsb-emulate`` (``python -m pytest_websearchbench.emulate``) serves either from the command line;
the project's tests use them as doubles. Nothing here is a real search engine's or model's behaviour beyond the
documented wire shapes."""
