"""The command entry points, one module each; the pipeline they drive lives in ``prover``.

- ``prove``: ``prove FILE`` (exit 0 proved, 1 not proved, 2 bad input).
- ``check``: ``prover-check``, the soundness verdict on a finished file.
- ``setup``: ``prover-setup``, installs proof assistants and models.
- ``doctor``: ``prover-doctor``, what is installed and what is missing.
- ``serve``: ``prover-serve``, a local OpenAI-compatible model server.
- ``demo`` / ``demo_llm``: ``make demo`` and ``make demo-llm``.

Each parses its arguments first and imports the heavy pipeline modules after.
"""
