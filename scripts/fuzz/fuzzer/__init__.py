"""Differential/invariant fuzzer for `seedstore import` (see scripts/fuzz/README.md).

Modules:
  gen       random model, mapping, CSV rows and options for one seed (a "case", plain JSON data)
  csvfiles  writes a case's files: model, mapping, CSV bytes (encodings, quoting, CRLF, line numbers)
  convert   the value oracle: what one CSV field must become in the store, per attribute type
  oracle    replays rows against the documented semantics (upserts, links, forward keys, joins)
  runner    runs the importer under `nice`, with a previous store when the case asks for one
  check     the invariants: exit codes, store safety, integrity, row accounting, faithful values
  minimize  delta-debugging of a failing case down to a small reproduction
"""
