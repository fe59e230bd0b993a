#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/model/run.sh [--quick] [MODEL.pml...] - model-check grain's
# protocols with Spin.
#
# Every model is a Promela file: those of test/model/ and of the examples'
# model/ folders (examples/reasm/model/kicker.pml) are all checked when no
# file is named. Its header comment lists the checks to run, one a line:
#
#    * check: [quick] pass [-DNAME[=VALUE]...]
#    * check: fail -DMUTANT [-DNAME[=VALUE]...]
#
# "pass": the model with those spin -D options must show no error (no
# assertion violated, no acceptance cycle of its LTL claim) in a complete
# search. "fail": it must show one; a mutant, the model with a known bug
# put back (by convention selected with -DMUTANT), proves that the checks
# can see that bug. A model with no check line gets "quick pass" and, if it
# mentions MUTANT, "fail -DMUTANT".
#
# Without --quick every check runs: the exhaustive run (CTest:
# model_exhaustive, which .ci/run runs on its own with a long limit), a few
# minutes on a quiet machine. With --quick (CTest: model_check, in the
# README's test command) only every "fail" check (each mutant, whose
# search ends at its first error) and the "pass" checks marked quick (the
# base configuration of each mode) run: a fraction of the states, so that
# the check keeps far inside its limit on a busy machine too.
#
# Each check: spin -a, the C compiler on pan.c ($CC, default gcc; -O1 for
# a "pass" check, whose search is complete and long; -O0 for a "fail"
# check, which stops early and so costs mostly the compile), then
# ./pan -a (assertions and acceptance cycles; with a never claim Spin does
# not report invalid end states, so models state their end conditions as
# assertions). Unexpected errors replay the counterexample (spin -t).
#
# Exit status: 0 all as expected; 1 otherwise; 77 (skipped) if spin or the
# C compiler is missing.
set -u

here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}

command -v spin >/dev/null 2>&1 || { echo "spin not found: skipped"; exit 77; }
command -v "$cc" >/dev/null 2>&1 || { echo "$cc not found: skipped"; exit 77; }

quick=0
if [ "${1:-}" = --quick ]; then
	quick=1
	shift
fi

if [ $# -eq 0 ]; then
	set -- "$here"/*.pml
	for model in "$here"/../../examples/*/model/*.pml; do
		[ -f "$model" ] && set -- "$@" "$model"
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/grain-model.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# check MODEL EXPECT [FLAG...]: one check; 0 if it ends as expected.
check() {
	model=$1
	expect=$2
	shift 2
	name=$(basename "$model")
	label="$name${*:+ $*}"
	dir="$work/run"
	rm -rf "$dir" && mkdir "$dir" || return 1
	# A copy beside pan, so that spin -t finds the trail.
	cp "$model" "$dir/$name" || return 1
	start=$(date +%s)
	if ! (cd "$dir" && spin "$@" -a "$name") >"$dir/spin.log" 2>&1; then
		echo "FAIL  $label: spin -a failed"
		cat "$dir/spin.log"
		return 1
	fi
	opt=-O1
	[ "$expect" = fail ] && opt=-O0
	# pan.c is generated: its warnings are not ours.
	if ! (cd "$dir" && "$cc" "$opt" -w -DMEMLIM=4096 -o pan pan.c) \
		>"$dir/cc.log" 2>&1; then
		echo "FAIL  $label: compiling pan.c failed"
		cat "$dir/cc.log"
		return 1
	fi
	(cd "$dir" && ./pan -a -m1000000) >"$dir/pan.log" 2>&1
	secs=$(($(date +%s) - start))
	errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$dir/pan.log")
	states=$(sed -n 's/^ *\([0-9][0-9.e+]*\) states, stored.*/\1/p' \
		"$dir/pan.log")
	if [ -z "$errors" ]; then
		echo "FAIL  $label: pan did not finish"
		cat "$dir/pan.log"
		return 1
	fi
	# A search cut short (depth, memory, or pan's MEMLIM bound, where it
	# stops with "errors: 0") proves nothing.
	if grep -q 'max search depth too small\|out of memory\|MEMLIM bound' \
		"$dir/pan.log"; then
		echo "FAIL  $label: incomplete search"
		cat "$dir/pan.log"
		return 1
	fi
	summary="errors: $errors, $states states, ${secs}s"
	if [ "$expect" = pass ] && [ "$errors" -eq 0 ]; then
		echo "ok    $label: passes ($summary)"
		return 0
	fi
	if [ "$expect" = fail ] && [ "$errors" -gt 0 ]; then
		first=$(grep -m1 'assertion violated\|acceptance cycle' \
			"$dir/pan.log")
		echo "ok    $label: fails as it must ($summary: $first)"
		return 0
	fi
	if [ "$expect" = pass ]; then
		echo "FAIL  $label: errors found ($summary); counterexample:"
		cat "$dir/pan.log"
		(cd "$dir" && spin "$@" -t -p -g -l "$name") 2>&1 | tail -150
	else
		echo "FAIL  $label: expected an error, found none ($summary)"
	fi
	return 1
}

failed=0
for model in "$@"; do
	if [ ! -f "$model" ]; then
		echo "FAIL  $model: no such file"
		failed=$((failed + 1))
		continue
	fi
	checks=$(sed -n 's/^ \* check: *//p' "$model")
	if [ -z "$checks" ]; then
		checks="quick pass"
		grep -q MUTANT "$model" && checks="quick pass
fail -DMUTANT"
	fi
	# One check a line: the expectation, then the spin options.
	ran=0
	while read -r expect flags; do
		marked=0
		if [ "$expect" = quick ]; then
			marked=1
			expect=${flags%% *}
			flags=${flags#"$expect"}
		fi
		case $expect in
		pass | fail) ;;
		*)
			echo "FAIL  $(basename "$model"): bad check line:" \
				"$expect $flags"
			failed=$((failed + 1))
			continue
			;;
		esac
		if [ "$quick" -eq 1 ] && [ "$expect" = pass ] &&
			[ "$marked" -eq 0 ]; then
			continue
		fi
		ran=$((ran + 1))
		# $flags is a list of -D options: split it.
		# shellcheck disable=SC2086
		check "$model" "$expect" $flags || failed=$((failed + 1))
	done <<EOF
$checks
EOF
	if [ "$ran" -eq 0 ]; then
		echo "FAIL  $(basename "$model"): no check ran"
		failed=$((failed + 1))
	fi
done

if [ "$failed" -ne 0 ]; then
	echo "$failed check(s) did not end as expected"
	exit 1
fi
if [ "$quick" -eq 1 ]; then
	echo "every quick model check ended as expected (each mutant" \
		"fails; test/model/run.sh without --quick runs them all)"
else
	echo "every model check ended as expected"
fi
