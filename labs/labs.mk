# Graded labs (tools/lab; one labs/NAME/lab.toml each; handouts in docs/teaching/labs/).
# Included by the top-level Makefile.
#
#   make labs                  list them
#   make lab-start LAB=NAME    branch lab/NAME from HEAD, the lab's functions emptied
#   make grade [LAB=NAME]      build, run the lab's grading tests, print the score table
#   make lab-results           docs/teaching/results.md: every lab's numbers, reference
#                              tree and starting state (committed, like docs/numbers/)
LAB ?=

labs:
	@$(PYTHON) tools/lab list

lab-start:
	@test -n "$(LAB)" || { echo "make lab-start: name the lab: make lab-start LAB=NAME" \
		"(make labs lists them)" >&2; exit 2; }
	@$(PYTHON) tools/lab start $(LAB)

grade: deps
	@$(PYTHON) tools/lab grade $(LAB)

lab-results: deps
	$(PYTHON) tools/lab results

.PHONY: labs lab-start grade lab-results
