import Foundation
import PhotoFilerFiling

/// Writes to stdout, and JSON for `--json`.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    static func json<T: Encodable>(_ value: T) {
        if let bytes = JSONText.encode(value, pretty: true) { print(String(decoding: bytes, as: UTF8.self)) }
    }
}
