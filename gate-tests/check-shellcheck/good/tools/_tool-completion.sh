#compdef tool
# Loaded by zsh's completion system (compinit), never run by sh.
local -a subcmds
subcmds=(build test)
if [ "$funcstack[1]" = "_tool" ]; then
  _describe 'command' subcmds
fi
