import Foundation

/// Throwaway certificate authorities and server certificates, made with the `openssl` CLI.
struct TestCertificates {
    let directory: URL
    let openssl: String

    /// Makes a self-signed CA as `<name>.crt` / `<name>.key`.
    func makeAuthority(_ name: String, commonName: String) throws(DovecotUnavailable) {
        try run("CA \(name)", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                               "-keyout", path("\(name).key"), "-out", path("\(name).crt"), "-days", "2", "-subj", "/CN=\(commonName)"])
    }

    /// Makes `<name>.crt` / `<name>.key` for `subjectAltName`, signed by `authority`.
    func makeServerCertificate(_ name: String, subjectAltName: String, signedBy authority: String) throws(DovecotUnavailable) {
        try run("key \(name)", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=\(name)"])
        let extensions = directory.appendingPathComponent("\(name).ext")
        do {
            try Data("subjectAltName=\(subjectAltName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
                .write(to: extensions)
        } catch {
            throw .setupFailed("writing \(extensions.lastPathComponent) failed")
        }
        try run("sign \(name)", ["x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(authority).crt"),
                                 "-CAkey", path("\(authority).key"), "-CAcreateserial", "-out", path("\(name).crt"), "-days", "2",
                                 "-extfile", extensions.path])
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func run(_ step: String, _ arguments: [String]) throws(DovecotUnavailable) {
        let status = ExecutableSearch.run(openssl, arguments)
        guard status == 0 else { throw .certificateGenerationFailed(step: step, status: status) }
    }
}
