import Foundation

/// Throwaway certificate authorities and server certificates, made with the `openssl` CLI.
struct TestCertificates {
    let directory: URL
    let openssl: String

    /// Makes a self-signed CA as `<name>.crt` / `<name>.key`.
    func makeAuthority(_ name: String, commonName: String) throws(DovecotUnavailable) {
        try run("CA \(name)", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                               "-keyout", "\(name).key", "-out", "\(name).crt", "-days", "2", "-subj", "/CN=\(commonName)"])
    }

    /// Makes `<name>.crt` / `<name>.key` for `subjectAltName`, signed by `authority`.
    func makeServerCertificate(_ name: String, subjectAltName: String, signedBy authority: String) throws(DovecotUnavailable) {
        try run("key \(name)", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)"])
        let extensions = directory.appendingPathComponent("\(name).ext")
        do {
            try Data("subjectAltName=\(subjectAltName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
                .write(to: extensions)
        } catch {
            throw .setupFailed("writing \(extensions.lastPathComponent) failed")
        }
        try run("sign \(name)", ["x509", "-req", "-in", "\(name).csr", "-CA", "\(authority).crt", "-CAkey", "\(authority).key",
                                 "-CAcreateserial", "-out", "\(name).crt", "-days", "2", "-extfile", "\(name).ext"])
    }

    private func run(_ step: String, _ arguments: [String]) throws(DovecotUnavailable) {
        let status = ExecutableSearch.run(openssl, arguments, in: directory)
        guard status == 0 else { throw .certificateGenerationFailed(step: step, status: status) }
    }
}
