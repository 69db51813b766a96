import Glibc
import PhotoFilerHelper
import PhotoFilerSandbox

// photofiler-helper-light: the sandboxed process that reads most files first, with
// libmagic and exiv2 only (`MediaDecoders` says why). A file that needs a decoder
// goes on to photofiler-helper. photofiler starts it itself, with `__helper` and its
// socket at descriptor 3; it is not a command.

guard CommandLine.arguments.count == 2, CommandLine.arguments[1] == HelperExecutable.modeArgument else {
    let line = "photofiler-helper-light is started by photofiler itself; run 'photofiler' instead.\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
HelperServer.run(decoders: nil)
