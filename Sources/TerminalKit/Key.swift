/// A key press, or a paste, as a terminal sends it.
public enum Key: Equatable, Hashable, Sendable {
    /// Printable text: a letter, a digit, a space, 한, 😀.
    case character(Character)
    /// Ctrl with a letter: `.control("c")` is Ctrl-C (byte 3).
    case control(Character)
    /// Alt (Meta) with a character: ESC then the character.
    case alt(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Text pasted while bracketed paste is on: never taken for commands.
    case paste(String)
}

/// Bytes from a terminal in raw mode, as keys: UTF-8 text, control keys, the CSI and SS3
/// sequences xterm, tmux, screen and the Linux console send for arrows and the editing keys,
/// Alt as a leading ESC, and bracketed paste. A sequence cut by the end of a read waits for
/// the next read; a lone ESC waits until `flush` (the loop calls it after a short pause, as
/// every terminal program must, since ESC also starts the sequences).
public struct KeyDecoder {
    private var pending: [UInt8] = []
    /// Inside a bracketed paste: the text so far.
    private var pasted: [UInt8]?

    public init() {}

    /// Whether bytes wait for more (an ESC alone, a sequence cut short).
    public var isWaiting: Bool { !pending.isEmpty }

    /// The keys `bytes` complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, used) = decode(at: index) else { break }
            if let key { keys.append(key) }
            index += used
        }
        pending.removeFirst(index)
        return keys
    }

    /// What waits, taken as it stands: a lone ESC is Escape; a cut sequence is dropped.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        if pasted != nil { return [] }
        if pending.first == 0x1B {
            let rest = Array(pending.dropFirst())
            pending.removeAll()
            return [.escape] + feed(rest)
        }
        return []
    }

    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

    /// The key at `index` and the bytes it takes (a nil key: bytes to skip), or nil when the
    /// bytes end before it does.
    private mutating func decode(at index: Int) -> (Key?, Int)? {
        if pasted != nil { return pasteText(at: index) }
        let byte = pending[index]
        switch byte {
        case 0x1B: return escape(at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00...0x1F: return (nil, 1)
        default:
            guard let (character, used) = character(at: index) else { return nil }
            return (character.map(Key.character), used)
        }
    }

    /// The UTF-8 character at `index` (nil for bytes that are not UTF-8: skipped).
    private func character(at index: Int) -> (Character?, Int)? {
        let lead = pending[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        if length == 0 { return (nil, 1) }
        if index + length > pending.count { return nil }
        let bytes = pending[index..<(index + length)]
        guard let text = String(validating: bytes, as: UTF8.self), let character = text.first else { return (nil, 1) }
        return (character, length)
    }

    private mutating func escape(at index: Int) -> (Key?, Int)? {
        guard index + 1 < pending.count else { return nil }
        let next = pending[index + 1]
        switch next {
        case 0x5B:  // [
            return controlSequence(at: index)
        case 0x4F:  // O: SS3, what application cursor mode sends
            guard index + 2 < pending.count else { return nil }
            let keys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return (keys[pending[index + 2]], 3)
        case 0x1B:
            return (.escape, 1)
        case 0x00...0x1F, 0x7F:
            return (.escape, 1)
        default:
            guard let (character, used) = character(at: index + 1) else { return nil }
            return (character.map(Key.alt), 1 + used)
        }
    }

    /// `ESC [ parameters final`.
    private mutating func controlSequence(at index: Int) -> (Key?, Int)? {
        var end = index + 2
        while end < pending.count && !(0x40...0x7E).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        let used = end - index + 1
        let first = Int(parameters.split(separator: ";").first ?? "") ?? 0
        switch pending[end] {
        case 0x41: return (.up, used)
        case 0x42: return (.down, used)
        case 0x43: return (.right, used)
        case 0x44: return (.left, used)
        case 0x48: return (.home, used)
        case 0x46: return (.end, used)
        case 0x5A: return (.backTab, used)
        case 0x7E:
            switch first {
            case 1, 7: return (.home, used)
            case 4, 8: return (.end, used)
            case 3: return (.delete, used)
            case 5: return (.pageUp, used)
            case 6: return (.pageDown, used)
            case 200:
                pasted = []
                return (nil, used)
            default: return (nil, used)
            }
        default:
            return (nil, used)
        }
    }

    /// Inside a paste: everything up to `ESC [ 201 ~` is text.
    private mutating func pasteText(at index: Int) -> (Key?, Int)? {
        let rest = pending[index...]
        if let end = rest.firstRange(of: Self.pasteEnd) {
            let text = (pasted ?? []) + pending[index..<end.lowerBound]
            pasted = nil
            return (.paste(String(decoding: text, as: UTF8.self)), end.upperBound - index)
        }
        // Keep what cannot be the start of the end marker; wait for more.
        let keep = min(rest.count, Self.pasteEnd.count - 1)
        let taken = rest.count - keep
        if taken == 0 { return nil }
        pasted?.append(contentsOf: pending[index..<(index + taken)])
        return (nil, taken)
    }
}
