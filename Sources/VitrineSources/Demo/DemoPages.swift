/// The demo's page files, in order; generated with them by `Scripts/make-demo-collection.py`.
enum DemoPages {
    static let all: [[UInt8]] = [
        PackageResources.demo_page_01_json,
        PackageResources.demo_page_02_json,
        PackageResources.demo_page_03_json,
        PackageResources.demo_page_04_json,
        PackageResources.demo_page_05_json,
        PackageResources.demo_page_06_json,
        PackageResources.demo_page_07_json,
        PackageResources.demo_page_08_json,
        PackageResources.demo_page_09_json,
        PackageResources.demo_page_10_json,
        PackageResources.demo_page_11_json,
        PackageResources.demo_page_12_json,
        PackageResources.demo_page_13_json,
    ]
}
