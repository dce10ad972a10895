"""Helpers the tests share and ``fuzz/`` and ``bench/`` import: record makers
(:mod:`support.records`), ``record`` scripts (:mod:`support.record_scripts`), single slips
(:mod:`support.slips`) and the fuzz suite's alphabets, strategies and properties
(:mod:`support.fuzzing`). Not tests themselves."""
