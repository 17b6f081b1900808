import Foundation
import VitrineCore

/// A list whose elements' renderings are fragments, kept from one run to the next: an artist page's cards, a
/// Markdown letter's object lines. Each element has a key made of every value its body asks for (from `seed`, the
/// template library's fingerprint, so a fragment never passes into a page of other templates); an element whose
/// key the last run rendered is copied from the last run's page (`known`) instead of rendered. A night renders the
/// few cards that changed and copies the rest.
///
/// The key covers the element's own values only. A body that asks for a name the element does not always answer
/// itself (one of `ownNames`), which an enclosing context might (the page's number inside a card, a page link's
/// `href` around it), is rendered element by element, with no fragments.
package struct TemplateFragments {
    let count: Int
    let element: (Int) -> any TemplateContext
    /// Names every element answers itself, whatever its values.
    let ownNames: Set<TemplateKey>
    /// What element `index` shows to a body that asks for `keys`: from `seed`, every value it gives for them.
    let key: (Int, [TemplateKey]) -> Fingerprint
    /// The last run's fragments that may be copied; `nil` renders every element.
    let known: KnownFragments?

    /// The key is made from the element's own type, not through `any TemplateContext`: a night makes one for every
    /// card and every object line.
    init<Element: TemplateContext>(
        count: Int, element: @escaping (Int) -> Element, ownNames: Set<TemplateKey>, seed: Fingerprint,
        known: KnownFragments?
    ) {
        self.count = count
        self.element = { element($0) }
        self.ownNames = ownNames
        key = { index, keys in
            var key = seed
            key.combine(model: element(index), keys: keys)
            return key
        }
        self.known = known
    }

    /// Elements whose keys were made beforehand, from at least every name the body asks for (a page's cards, made
    /// once for the page's fingerprint and its rendering).
    init<Element: TemplateContext>(
        element: @escaping (Int) -> Element, keys: [Fingerprint], ownNames: Set<TemplateKey>,
        known: KnownFragments?
    ) {
        count = keys.count
        self.element = { element($0) }
        self.ownNames = ownNames
        key = { index, _ in keys[index] }
        self.known = known
    }
}

/// Where a fragment is in the bytes rendered: its key, and its start and end.
package struct RenderedFragment: Sendable, Equatable {
    package let key: Fingerprint
    package let start: Int
    package let end: Int
}

/// The last run's fragments in a few pages of the live catalog (an artist page's own and its neighbours'), by
/// key; their bytes read from those pages as they are copied, a window at a time. One page's rendering uses it, on
/// one thread.
final class KnownFragments {
    /// A fragment's page (by its place in `files`), start and length.
    struct Place {
        let file: Int
        let start: Int
        let count: Int
    }

    private let places: [Fingerprint: Place]
    /// Each page's open file and size.
    private let files: [(descriptor: Int32, size: Int)]
    /// How many fragments were copied.
    private(set) var copied = 0
    /// The bytes of a page last read, and where they start in it.
    private var window: (file: Int, start: Int, bytes: [UInt8]) = (-1, 0, [])

    /// Bytes read at once: an artist page whole, a Markdown letter a megabyte at a time.
    static let windowSize = 1 << 20

    init(places: [Fingerprint: Place], files: [(descriptor: Int32, size: Int)]) {
        self.places = places
        self.files = files
    }

    deinit {
        for file in files { close(file.descriptor) }
    }

    /// Appends the fragment the last run rendered under `key`, and returns whether there was one that could be read.
    func copy<Output: TemplateOutput>(_ key: Fingerprint, into output: inout Output) -> Bool {
        guard let place = places[key], place.file < files.count else { return false }
        let end = place.start + place.count
        if window.file != place.file || place.start < window.start || end > window.start + window.bytes.count {
            guard read(place) else { return false }
        }
        window.bytes.withUnsafeBytes { bytes in
            output.append(
                fragment: UnsafeRawBufferPointer(rebasing: bytes[(place.start - window.start)..<(end - window.start)]),
                key: key)
        }
        copied += 1
        return true
    }

    /// Reads the window that starts with `place`'s fragment. A read that comes short (the page changed since the
    /// last run) copies nothing: the element is rendered.
    private func read(_ place: Place) -> Bool {
        let file = files[place.file]
        guard place.start >= 0, place.count >= 0, place.start + place.count <= file.size else { return false }
        let count = min(file.size - place.start, max(place.count, Self.windowSize))
        // Not zeroed first: `pread` fills it, and only what it filled is kept, so zeroing would be a wasted pass.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let read = pread(
                    file.descriptor, buffer.baseAddress.map { $0 + initialized }, count - initialized,
                    off_t(place.start + initialized))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { return }
                initialized += read
            }
        }
        guard bytes.count == count else {
            window = (-1, 0, [])
            return false
        }
        window = (place.file, place.start, bytes)
        return true
    }
}
