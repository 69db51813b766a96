import Foundation
import PhotoFilerFiling

/// Writes to stdout, and JSON for `--json`.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    /// Prints `value` as JSON. A value that cannot be encoded is a bug, never an empty
    /// success: the command stops with exit status 1 and says so.
    static func json<T: Encodable>(_ value: T) {
        do {
            print(String(decoding: try JSONText.encode(value, pretty: true), as: UTF8.self))
        } catch {
            FileHandle.standardError.write(
                Data(
                    "photofiler: the JSON output could not be encoded (\(error)); please report this bug.\n"
                        .utf8))
            exit(1)
        }
    }
}
