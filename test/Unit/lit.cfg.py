# test/Unit/lit.cfg.py — runs every GoogleTest binary (name ending in
# "Tests") found in the build's test/Unit folder, one lit test per case.
import os

import lit.formats

config.name = "modelc-unit"
config.suffixes = []
config.test_exec_root = config.unit_test_dir
config.test_source_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
