// libinotifytools: the product's watcher. <sys/inotify.h> must come first, or
// its headers fall back to their own copy and events import as OpaquePointer.
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
