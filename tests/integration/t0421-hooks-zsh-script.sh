#!/bin/bash
# t0420 again with the zsh hook's script alone (no module): the fallback
# where zsh's headers were missing at build time.
DELIBERATE_ZSH_MODULE=none exec bash "$(dirname "$0")/t0420-hooks-zsh.sh"
