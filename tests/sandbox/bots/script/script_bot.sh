#!/bin/sh
# A bot that is just a program the runner starts (as a Go or C bot would be):
# here a shell script handing its seat to `sheepfold bot`, whose interpreter is $1.
# Everything it needs comes from the environment the runner sets.
exec "$1" -m cli bot --bot random --seed "${SHEEPFOLD_SEED:-0}"
