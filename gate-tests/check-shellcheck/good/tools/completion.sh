# bash completion for fetchit                               -*- shell-script -*-

__fetchit_start()
{
    local cur prev words cword split
    _init_completion -s || return
    COMPREPLY=()
    printf '%s\n' "$cur" "$prev" "${words[@]}" "$cword"
}

complete -o default -F __fetchit_start fetchit
