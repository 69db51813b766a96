# bash completion for photofiler(1): commands, options, their values, and album
# names from the library's catalog for --album.

# The album names of the library the command line names (--library), one a line.
_photofiler_albums() {
    local i library=()
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        case ${COMP_WORDS[i]} in
            --library) library=(--library "${COMP_WORDS[i + 1]}") ;;
            --library=*) library=("${COMP_WORDS[i]}") ;;
        esac
    done
    photofiler albums "${library[@]}" 2>/dev/null | cut -f1
}

_photofiler() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="watch save albums list info rm restore favorite unfavorite hide unhide check export status serve pick share thumb help"
    local common="--library --json --config --verbose --help"
    local command="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --library | --config | --album | --inbox | --link | --settle | --rescan | --media | --sort | --limit | --listen | --token | --expires | --revoke | --connections | --connections-per-address | --head-timeout | --streams-per-address | --streams-per-share) ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]} && break ;;
        esac
    done
    COMPREPLY=()
    case $prev in
        --library) mapfile -t COMPREPLY < <(compgen -d -- "$cur") && return ;;
        --config) mapfile -t COMPREPLY < <(compgen -f -- "$cur") && return ;;
        --link) mapfile -t COMPREPLY < <(compgen -W "hard symbolic" -- "$cur") && return ;;
        --media)
            local kinds="image video"
            [[ $command == pick || $command == list ]] && kinds="image video live"
            mapfile -t COMPREPLY < <(compgen -W "$kinds" -- "$cur") && return
            ;;
        --sort) mapfile -t COMPREPLY < <(compgen -W "added created" -- "$cur") && return ;;
        --inbox | --settle | --rescan | --limit | --listen | --token | --expires | --revoke | --connections | --connections-per-address | --head-timeout | --streams-per-address | --streams-per-share) return ;;
        --album)
            local name
            while IFS= read -r name; do
                [[ $name == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
            done < <(_photofiler_albums)
            return
            ;;
    esac
    if [[ -z $command ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands --version --help" -- "$cur")
        return
    fi
    local flags=""
    case $command in
        watch) flags="--inbox --link --settle --rescan --keep" ;;
        save) flags="--album --move --link --quiet" ;;
        list) flags="--album --media --sort --limit" ;;
        rm) flags="--album" ;;
        check) flags="--repair --quiet" ;;
        thumb) flags="--size --all -o" ;;
        export) flags="--video -o" ;;
        serve) flags="--listen --token --connections --connections-per-address --head-timeout --streams-per-address --streams-per-share" ;;
        pick) flags="--media --limit --album" ;;
        share) flags="--expires --listen --list --revoke" ;;
        help)
            mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$flags $common" -- "$cur")
    fi
    # Otherwise nothing: `-o default` completes file names (save FILE…, info PATH).
}

complete -o default -F _photofiler photofiler
