import CVips
import PhotoFilerSystem

/// libheif reading one open file through positioned reads, never by a path and
/// never whole: a grid's tiles are read as they are decoded, so a 30 MB HEIC is
/// not all in memory (a mapping of it would be, once every tile has touched it).
final class HeifFileReader {
    let fd: FileDescriptor
    let size: Int64
    var position: Int64 = 0
    /// libheif keeps a pointer to the table, not a copy: it lives as long as the reader.
    private let callbacks = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)

    init(fd: FileDescriptor, size: Int64) {
        self.fd = fd
        self.size = size
        callbacks.initialize(to: Self.table)
    }

    deinit { callbacks.deallocate() }

    /// Has `context` read the file's boxes through this reader, which must outlive it.
    func open(_ context: OpaquePointer) -> heif_error {
        heif_context_read_from_reader(context, callbacks, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private static let table: heif_reader = {
        var table = heif_reader()
        table.reader_api_version = 1
        table.get_position = { userdata in HeifFileReader.reader(userdata).position }
        table.read = { data, count, userdata in HeifFileReader.reader(userdata).read(data, count: count) }
        // Any position a file could have, past the end too, as libheif's own file reader
        // allows: libheif asserts (aborts) when a seek fails (its `BitstreamRange`), and a
        // box that points past the end is a stranger's file, not a reason to crash. A
        // read there fails, and libheif reports the file as broken.
        table.seek = { position, userdata in
            guard position >= 0 else { return -1 }
            HeifFileReader.reader(userdata).position = position
            return 0
        }
        table.wait_for_file_size = { target, userdata in
            target <= HeifFileReader.reader(userdata).size
                ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
        }
        return table
    }()

    fileprivate static func reader(_ userdata: UnsafeMutableRawPointer?) -> HeifFileReader {
        Unmanaged<HeifFileReader>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Fills `count` bytes from the position: 0, or -1 short of them or on an error.
    fileprivate func read(_ data: UnsafeMutableRawPointer?, count: Int) -> CInt {
        guard let data else { return count == 0 ? 0 : -1 }
        var done = 0
        while done < count {
            let got: Int
            do {
                got = try fd.read(
                    into: UnsafeMutableRawBufferPointer(start: data + done, count: count - done),
                    at: position + Int64(done))
            } catch {
                return -1
            }
            guard got > 0 else { return -1 }
            done += got
        }
        position += Int64(count)
        return 0
    }
}
