import VitrineCore

extension [CatalogViewModel.DisplayedObject] {
    /// Hands `body` each object where it is, by pointer. An object taken from an array (`for object in`, or
    /// `objects[index]` passed to a function) is copied first, even to a `borrowing` parameter: a reference count
    /// of each of its strings, then a release of each, for every object of every format.
    package func forEachInPlace(_ body: (UnsafePointer<CatalogViewModel.DisplayedObject>) throws -> Void) rethrows {
        try withUnsafeBufferPointer { objects in
            guard let first = objects.baseAddress else { return }
            for offset in objects.indices { try body(first + offset) }
        }
    }

    /// `body` of the object at `position`, where it is (see `forEachInPlace`); `nil` when there is none there.
    func withObject<Result>(
        at position: Int, _ body: (UnsafePointer<CatalogViewModel.DisplayedObject>) -> Result
    ) -> Result? {
        withUnsafeBufferPointer { objects in
            guard objects.indices.contains(position), let first = objects.baseAddress else { return nil }
            return body(first + position)
        }
    }
}

extension UnsafePointer<CatalogViewModel.DisplayedObject> {
    /// What an object's card and its Markdown line both show, as a page `root` away from the output folder links
    /// it: its id, detail page, title, date, alt text and thumbnail. `nil` for any other key.
    func shownValue(for key: TemplateKey, root: String) -> TemplateValue? {
        switch key {
        case .id: .text(pointee.id)
        case .pageName: .text(pointee.pageName)
        case .title: .text(pointee.title)
        case .date: .text(pointee.date)
        case .hasDate: .flag(pointee.hasDate)
        case .altText: .text(altText)
        case .thumbnailURL: .text(GalleryPlan.located(pointee.thumbnailURL, from: root))
        case .thumbnailWidth: .number(pointee.thumbnailWidth)
        case .thumbnailHeight: .number(pointee.thumbnailHeight)
        case .hasThumbnail: .flag(!pointee.thumbnailURL.isEmpty)
        default: nil
        }
    }
}
