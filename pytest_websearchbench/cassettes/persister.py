"""vcrpy's filesystem persister, except that a cassette is written atomically."""

from __future__ import annotations

from pathlib import Path

from pytest_websearchbench.core.atomic import write_text_atomic

# vcrpy is imported where it is used, not at plugin load: pytest-recording, loaded later,
# registers assertion rewriting for vcr's modules and warns if they are already imported.


class AtomicPersister:
    @staticmethod
    def load_cassette(cassette_path, serializer):
        from vcr.persisters.filesystem import FilesystemPersister

        return FilesystemPersister.load_cassette(cassette_path, serializer)

    @staticmethod
    def save_cassette(cassette_path, cassette_dict, serializer):
        from vcr.serialize import serialize

        write_text_atomic(Path(cassette_path), serialize(cassette_dict, serializer))
