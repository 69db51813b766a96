import PhotoFilerSystem

/// A usage or configuration error: exit status 2, one sentence with the fix.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The command line as bytes (file operands may not be UTF-8), consumed as parsed.
///
/// Options may stand anywhere after the command; `--` ends them. `--name=value`
/// and `--name value` are both accepted.
struct Arguments {
    private(set) var remaining: [BytePath]
    let command: String

    init(_ arguments: [BytePath], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// Removes and returns every value of a repeatable option.
    mutating func values(_ name: String) throws(UsageError) -> [BytePath] {
        var found: [BytePath] = []
        var index = 0
        var kept: [BytePath] = []
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" {
                kept.append(contentsOf: remaining[index...])
                break
            }
            let text = argument.display
            if text == name {
                guard index + 1 < remaining.count else {
                    throw UsageError("The option \(name) needs a value; see 'photofiler \(command) --help'.")
                }
                found.append(remaining[index + 1])
                index += 2
                continue
            }
            if text.hasPrefix(name + "=") {
                found.append(BytePath(bytes: argument.bytes.dropFirst(name.utf8.count + 1)))
                index += 1
                continue
            }
            kept.append(argument)
            index += 1
        }
        remaining = kept
        // An empty value is most often a script's unset variable (`--library "$LIB"`):
        // taken as "no option", it would act on another library.
        if found.contains(where: \.isEmpty) {
            throw UsageError(
                "The option \(name) is given an empty value (an unset shell variable?); give it one, see 'photofiler \(command) --help'."
            )
        }
        return found
    }

    /// The value of an option given at most once.
    mutating func value(_ name: String) throws(UsageError) -> BytePath? {
        let all = try values(name)
        if all.count > 1 { throw UsageError("The option \(name) is given more than once; give it once.") }
        return all.first
    }

    /// An option's value as text: UTF-8, or refused (a file name is a `value`, bytes).
    mutating func string(_ name: String) throws(UsageError) -> String? {
        guard let value = try value(name) else { return nil }
        guard let text = String(validating: value.bytes, as: UTF8.self) else {
            throw UsageError(
                "The option \(name) takes UTF-8 text, and '\(value.display)' is not (U+FFFD marks the bad bytes); give it in UTF-8."
            )
        }
        return text
    }

    /// A whole number option within `range`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try string(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "The option \(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'."
            )
        }
        return number
    }

    /// One of a fixed set of words.
    mutating func choice<T: RawRepresentable>(_ name: String, _ type: T.Type) throws(UsageError) -> T?
    where T.RawValue == String, T: CaseIterable {
        guard let text = try string(name) else { return nil }
        guard let value = T(rawValue: text) else {
            let words = T.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError("The option \(name) takes \(words), not '\(text)'.")
        }
        return value
    }

    /// Removes a flag; true when it was there.
    mutating func flag(_ name: String) -> Bool {
        var found = false
        var kept: [BytePath] = []
        var ended = false
        for argument in remaining {
            if !ended, argument == "--" { ended = true }
            if !ended, argument.display == name {
                found = true
                continue
            }
            kept.append(argument)
        }
        remaining = kept
        return found
    }

    /// What is left once options are taken: operands. An unknown option is an error.
    mutating func operands() throws(UsageError) -> [BytePath] {
        var result: [BytePath] = []
        var ended = false
        for argument in remaining {
            if !ended, argument == "--" {
                ended = true
                continue
            }
            if !ended, argument.bytes.first == UInt8(ascii: "-"), argument.bytes.count > 1 {
                throw UsageError("Unknown option '\(argument.display)'; see 'photofiler \(command) --help'.")
            }
            result.append(argument)
        }
        remaining = []
        return result
    }
}
