# fish completion for photofiler(1): commands, options, their values, and album
# names from the library's catalog for --album.

# The album names of the library the command line names (--library).
function __photofiler_albums
    set -l words (commandline -opc)
    set -l library
    for i in (seq (count $words))
        if test "$words[$i]" = --library; and test $i -lt (count $words)
            set library --library $words[(math $i + 1)]
        else if string match -q -- '--library=*' $words[$i]
            set library $words[$i]
        end
    end
    photofiler albums $library 2>/dev/null | cut -f1
end

set -l commands watch save albums list info rm restore favorite unfavorite hide unhide check export status serve pick share thumb help
complete -c photofiler -f
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a watch -d 'the daemon: watch the inboxes'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a save -d 'file the given files now'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a albums -d 'albums with count and cover'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a list -d 'assets, newest first'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a info -d 'one asset, by id or path'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a rm -d 'to Recently Deleted, or out of an album'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a restore -d 'back from Recently Deleted'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a favorite -d 'mark as favorites'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a unfavorite -d 'unmark favorites'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a hide -d 'hide from every listing but Hidden'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a unhide -d 'show hidden assets again'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a check -d 'compare catalog and disk'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a export -d "a Live Photo's video"
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a status -d 'is a daemon running'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a thumb -d "an asset's thumbnail, or all missing ones"
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a serve -d 'the web gallery'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a pick -d 'pick assets in the browser'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a share -d 'a link to one album'
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -a help -d "a command's usage"
complete -c photofiler -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c photofiler -n "__fish_seen_subcommand_from help" -a "$commands"

# Every command.
complete -c photofiler -n "__fish_seen_subcommand_from $commands" -l library -r -F -d 'the library folder'
complete -c photofiler -n "__fish_seen_subcommand_from $commands" -l json -d 'print JSON on stdout'
complete -c photofiler -n "__fish_seen_subcommand_from $commands" -l config -r -F -d 'the config file'
complete -c photofiler -n "__fish_seen_subcommand_from $commands" -l verbose -d 'log more'
complete -c photofiler -n "__fish_seen_subcommand_from $commands" -l help -d "the command's usage"

complete -c photofiler -n "__fish_seen_subcommand_from watch" -l inbox -x -d 'NAME=DIR: watch DIR for the album NAME'
complete -c photofiler -n "__fish_seen_subcommand_from watch save" -l link -x -a 'hard symbolic' -d 'how album entries refer to roll files'
complete -c photofiler -n "__fish_seen_subcommand_from watch" -l settle -x -d 'milliseconds a file must stay unchanged'
complete -c photofiler -n "__fish_seen_subcommand_from watch" -l rescan -x -d 'minutes between rescans, 0 = never'
complete -c photofiler -n "__fish_seen_subcommand_from watch" -l keep -d 'leave inbox files in place'
complete -c photofiler -n "__fish_seen_subcommand_from save list rm pick" -l album -x -a '(__photofiler_albums)' -d 'an album'
complete -c photofiler -n "__fish_seen_subcommand_from save" -l move -d 'remove the files once filed'
complete -c photofiler -n "__fish_seen_subcommand_from save check" -l quiet -d 'no progress lines off a terminal'
complete -c photofiler -n "__fish_seen_subcommand_from save info" -F
complete -c photofiler -n "__fish_seen_subcommand_from list" -l media -x -a 'image video live' -d 'only images, videos or Live Photos'
complete -c photofiler -n "__fish_seen_subcommand_from export" -l video -d 'the paired or embedded video'
complete -c photofiler -n "__fish_seen_subcommand_from export" -s o -r -F -d 'the file to write'
complete -c photofiler -n "__fish_seen_subcommand_from list" -l sort -x -a 'added created' -d 'by date added or capture date'
complete -c photofiler -n "__fish_seen_subcommand_from list" -l limit -x -d 'at most N assets'
complete -c photofiler -n "__fish_seen_subcommand_from check" -l repair -d 'make the catalog match the disk'
complete -c photofiler -n "__fish_seen_subcommand_from thumb" -l size -x -a '256 1024' -d 'longest edge in pixels'
complete -c photofiler -n "__fish_seen_subcommand_from thumb" -l all -d 'make every missing thumbnail'
complete -c photofiler -n "__fish_seen_subcommand_from thumb" -s o -r -F -d 'the output file (.png for PNG)'
complete -c photofiler -n "__fish_seen_subcommand_from serve share" -l listen -x -d 'ADDR:PORT of the gallery'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l token -x -d 'the token every request needs'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l connections -x -d 'open connections in all'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l connections-per-address -x -d 'open connections from one address'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l head-timeout -x -d 'seconds to send a whole request head'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l streams-per-address -x -d 'event streams from one address'
complete -c photofiler -n "__fish_seen_subcommand_from serve" -l streams-per-share -x -d 'event streams through one share'
complete -c photofiler -n "__fish_seen_subcommand_from pick" -l media -x -a 'image video live' -d 'only images, videos or Live Photos'
complete -c photofiler -n "__fish_seen_subcommand_from pick" -l limit -x -d 'at most N picked'
complete -c photofiler -n "__fish_seen_subcommand_from share" -l expires -x -d 'days the link works'
complete -c photofiler -n "__fish_seen_subcommand_from share" -l list -d 'list the shares'
complete -c photofiler -n "__fish_seen_subcommand_from share" -l revoke -x -d 'end a share (token or id)'
complete -c photofiler -n "__fish_seen_subcommand_from share" -a '(__photofiler_albums)'
