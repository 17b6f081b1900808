/// One element of a small XML tree: what the streaming parser keeps of a single OAI-PMH record, so a record
/// can be read with lookups while the page as a whole is never held as a tree.
package struct XMLElementNode: Sendable, Equatable {
    /// The element's namespace URI (`http://purl.org/dc/elements/1.1/`), empty when it has none.
    package var namespace: String
    /// The local name (`title` for `dc:title`).
    package var name: String
    /// Attributes by local name (`about` for `rdf:about`, `lang` for `xml:lang`).
    package var attributes: [String: String]
    package var children: [XMLElementNode] = []
    /// The element's own text, whitespace-trimmed.
    package var text: String = ""

    package init(namespace: String, name: String, attributes: [String: String] = [:]) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
    }

    /// The first child with this local name.
    package func child(_ name: String) -> XMLElementNode? {
        children.first { $0.name == name }
    }

    /// The children with this local name, in document order.
    package func children(_ name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }

    /// The first descendant with this local name, depth-first: found without collecting the others.
    package func firstDescendant(_ name: String) -> XMLElementNode? {
        for child in children {
            if child.name == name { return child }
            if let found = child.firstDescendant(name) { return found }
        }
        return nil
    }

    /// The first descendant whose `rdf:about` is `uri`: the target of an EDM reference in the same record.
    package func firstDescribed(_ uri: String) -> XMLElementNode? {
        for child in children {
            if child.attributes["about"] == uri { return child }
            if let found = child.firstDescribed(uri) { return found }
        }
        return nil
    }

    /// The text, or `nil` when blank.
    package var nonBlankText: String? {
        text.isEmpty ? nil : text
    }

    /// `rdf:resource`, else `rdf:about` of the first child (the nested form), else the text: where EDM puts a
    /// reference in either of its shapes.
    package var reference: String? {
        if let resource = attributes["resource"], !resource.isEmpty { return resource }
        if let about = children.lazy.compactMap({ $0.attributes["about"] }).first(where: { !$0.isEmpty }) {
            return about
        }
        return nonBlankText
    }
}

extension [XMLElementNode] {
    /// The text of the element in the first language of `languages` that has one, then an untagged one, then
    /// any: how a multilingual label is chosen.
    package func text(preferring languages: [String]) -> String? {
        let labelled = filter { $0.nonBlankText != nil }
        for language in languages {
            if let match = labelled.first(where: { $0.attributes["lang"]?.lowercased() == language }) {
                return match.text
            }
        }
        return labelled.first { $0.attributes["lang"] == nil }?.text ?? labelled.first?.text
    }
}
