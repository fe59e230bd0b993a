# SPDX-License-Identifier: BSD-2-Clause
"""reportlib - what bench/report.py is made of: data (the drivers' JSON),
targets (bench/targets.json), charts (gnuplot) and pages (Markdown)."""
