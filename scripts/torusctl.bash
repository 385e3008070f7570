# bash completion for torusctl (installed by make install as
# share/bash-completion/completions/torusctl). Commands, collectives,
# algorithms and every option the command's --help lists.
_torusctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local first=1
    while [[ ${COMP_WORDS[first]:-} == -[qv] || ${COMP_WORDS[first]:-} == --quiet ||
             ${COMP_WORDS[first]:-} == --verbose ]]; do
        first=$((first + 1))
    done
    local cmd=${COMP_WORDS[first]:-}
    if [ "$COMP_CWORD" -le "$first" ]; then
        mapfile -t COMPREPLY < <(compgen -W "schedule verify run info list dump cdg routing --help --version -q -v" -- "$cur")
        return
    fi
    case $prev in
        --algo)
            mapfile -t COMPREPLY < <(compgen -W "auto dp dp-long ring split-ring class-ring dim tree liquid round-robin certificates shoulder-tap" -- "$cur")
            return ;;
        --backend)
            mapfile -t COMPREPLY < <(compgen -W "sim usb serial" -- "$cur")
            return ;;
        --switching)
            mapfile -t COMPREPLY < <(compgen -W "cs sf relay" -- "$cur")
            return ;;
        --tree)
            mapfile -t COMPREPLY < <(compgen -W "auto dor six" -- "$cur")
            return ;;
        --permutation)
            mapfile -t COMPREPLY < <(compgen -W "random tornado bit-reversal transpose" -- "$cur")
            return ;;
        --json|--svg|--schedule|--lengths|--network|--stats|--trace|--port)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return ;;
        --sim-dir)
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
            grep -o -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur")
        return
    fi
    case $cmd in
        run)
            mapfile -t COMPREPLY < <(compgen -W "gossip broadcast alltoall scatter gather p2p perm" -- "$cur") ;;
        schedule)
            mapfile -t COMPREPLY < <(compgen -W "gossip broadcast alltoall scatter gather" -- "$cur") ;;
        verify)
            mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur") ;;
    esac
}
complete -F _torusctl torusctl
