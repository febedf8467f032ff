"""The sketch stage: an LLM turns problem + informal proof into named lemmas with holes and
a main proof that uses them, checked by the proof assistant and repaired from its errors.

``parse.parse_sketch`` reads a reply; ``graph`` builds the lemma dependency graph;
``stage.make_sketch`` runs the model / check / repair loop.
"""
