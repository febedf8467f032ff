"""The sketch layer: a proof sketch as data. Named lemmas with holes and a main proof that
uses them, read out of model output and checked for shape; no model and no proof assistant here.

``records`` holds ``LemmaSpec`` and ``Sketch``; ``parse.parse_sketch`` reads a reply and
``parse.skeleton`` writes the file that is compile-checked; ``graph`` builds the lemma
dependency graph. It imports only its records' base (``lean_tools.types``); the proof
assistant's syntax is passed in (``parse.SketchSyntax``). The stage that calls the model,
checks the skeleton and repairs it from the errors is ``prover.sketch_stage``.
"""
