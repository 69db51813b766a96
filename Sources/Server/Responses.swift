import Foundation
import PhotoFilerFiling

extension HTTPResponse {
    static func json<T: Encodable>(_ value: T, status: UInt32 = 200) -> HTTPResponse {
        guard let bytes = try? JSONText.encode(value, pretty: false) else {
            return .error(500, "The answer could not be encoded as JSON.")
        }
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: .bytes(bytes))
    }

    /// The API's error body: `{"error": "…"}`.
    static func error(_ status: UInt32, _ message: String) -> HTTPResponse {
        struct Failure: Encodable { var error: String }
        let bytes = (try? JSONText.encode(Failure(error: message), pretty: false)) ?? Array("{}".utf8)
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: .bytes(bytes))
    }

    static func html(_ text: String, status: UInt32 = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: .bytes(Array(text.utf8)))
    }

    static func noContent() -> HTTPResponse { HTTPResponse(status: 204) }
}

/// Escapes text for an HTML attribute or element.
func htmlEscaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}
