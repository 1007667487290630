# Graded labs (tools/lab; one labs/NAME/lab.toml each; handouts in docs/teaching/labs/).
# Included by the top-level Makefile.
#
#   make labs                  list them
#   make lab-start LAB=NAME    branch lab/NAME from HEAD, the lab's functions emptied
#   make grade [LAB=NAME]      build, run the lab's grading tests, print the score table
#   make lab-results           docs/teaching/results.md: every lab's numbers, reference
#                              tree, starting state and flawed variants (committed, like
#                              docs/numbers/; make test checks it: tools/lab results
#                              --check, which reuses the runs make test made)
#   make lab-export DIR=PATH   a student repository: every lab in its starting state, no
#                              reference body or history (tools/lab export)
#   make handin [LAB=NAME]     in a student repository: grade and bundle the changes,
#                              the grade and answers.md into handin.tar.gz
#   make grade-handin BUNDLE=F the teacher's grade of a hand-in (tools/lab grade-handin)
LAB ?=
DIR ?=
BUNDLE ?=

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

lab-export:
	@test -n "$(DIR)" || { echo "make lab-export: name the directory: make lab-export" \
		"DIR=PATH" >&2; exit 2; }
	@$(PYTHON) tools/lab export $(DIR)

handin: deps
	@$(PYTHON) tools/lab handin $(LAB)

grade-handin: deps
	@test -n "$(BUNDLE)" || { echo "make grade-handin: name the bundle: make grade-handin" \
		"BUNDLE=FILE" >&2; exit 2; }
	@$(PYTHON) tools/lab grade-handin $(BUNDLE) $(LAB)

.PHONY: labs lab-start grade lab-results lab-export handin grade-handin
