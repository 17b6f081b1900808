import VitrineCore

// A page's fingerprint is made from its model, through the same `value(for:)` its template reads: a value added to a
// model is in the fingerprint of every page that shows it, with nothing else to keep in step.

extension Fingerprint {
    /// Everything a template that asks for `keys` can read of `model`: each key's value, and inside every context
    /// and list it holds, each key's value again (a template's names reach nested contexts only through its keys).
    mutating func combine(model: some TemplateContext, keys: [TemplateKey]) {
        for key in keys {
            switch model.value(for: key) {
            case .none:
                combine(byte: 0)
            case .text(let text):
                combine(byte: 2)
                combine(field: text)
            case .number(let number):
                combine(byte: 3)
                combine(field: number)
            case .flag(let flag):
                combine(byte: flag ? 5 : 4)
            case .context(let context):
                combine(byte: 6)
                combine(model: context, keys: keys)
            case .list(let contexts):
                combine(byte: 7)
                combine(field: contexts.count)
                for context in contexts { combine(model: context, keys: keys) }
            case .items(let count, let element):
                combine(byte: 8)
                combine(field: count)
                for index in 0..<count { combine(model: element(index), keys: keys) }
            case .fragments(let list):
                combine(byte: 9)
                combine(field: list.count)
                for index in 0..<list.count { combine(list.key(index, keys)) }
            }
        }
    }
}
