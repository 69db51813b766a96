import Glibc
import PhotoFilerDecoders
import PhotoFilerHelper
import PhotoFilerMediaTypes
import PhotoFilerSandbox

// photofiler-helper: the sandboxed process that reads strangers' bytes for the
// photofiler daemon and commands (photofiler(1) "Untrusted bytes") with every decoder:
// libvips, libheif and libavformat besides libmagic and exiv2. It reads what the
// light helper hands on and makes the thumbnails. photofiler starts it itself,
// with `__helper` and its socket at descriptor 3; it is not a command.

guard CommandLine.arguments.count == 2, CommandLine.arguments[1] == HelperExecutable.modeArgument else {
    let line = "photofiler-helper is started by photofiler itself; run 'photofiler' instead.\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
// First, while the process has no other thread: it sets the environment.
PhotoPlugins.restrict()
HelperServer.run { () throws(MediaError) in try LibraryDecoders() }
