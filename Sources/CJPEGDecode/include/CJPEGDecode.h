#ifndef CJPEGDECODE_H
#define CJPEGDECODE_H

#include <stddef.h>
#include <stdint.h>

/// How a step of a JPEG decode ended.
typedef enum {
    /// The step succeeded.
    CJPEGDecodeOK = 0,
    /// libjpeg stopped with an error (its `error_exit`); the failure holds its message.
    CJPEGDecodeLibraryError = 1,
    /// libjpeg warned (corrupt or missing data, which it would paper over); the failure holds
    /// the first warning. A strict reader refuses the image.
    CJPEGDecodeLibraryWarning = 2,
    /// The image has more progressive scans than allowed (a decoding-time bomb).
    CJPEGDecodeTooManyScans = 3,
    /// The decoder's own state could not be allocated.
    CJPEGDecodeOutOfMemory = 4,
} CJPEGDecodeStatus;

/// What libjpeg said when a step failed: its message code (`J_MESSAGE_CODE`) and text.
typedef struct {
    int messageCode;
    char message[200];
} CJPEGDecodeFailure;

/// A decoder over one in-memory JPEG file; opaque to Swift.
typedef struct CJPEGDecoder CJPEGDecoder;

/// Starts a decoder over `size` bytes at `data`, which must stay valid until
/// `CJPEGDecodeClose`. `maximumScans` caps progressive scans; `maximumMemory` caps libjpeg's
/// working memory in bytes. NULL when the decoder cannot be allocated.
CJPEGDecoder *CJPEGDecodeOpen(const uint8_t *data, size_t size, int maximumScans, long maximumMemory);

/// Reads the header and asks for 8-bit greyscale output; sets the output size.
CJPEGDecodeStatus CJPEGDecodeReadHeader(CJPEGDecoder *decoder, uint32_t *width, uint32_t *height,
                                        CJPEGDecodeFailure *failure);

/// Decodes every row into `pixels` (`height` rows of `width` bytes, `rowStride` bytes apart),
/// after a successful `CJPEGDecodeReadHeader`. Fails on any libjpeg warning.
CJPEGDecodeStatus CJPEGDecodeReadGrey(CJPEGDecoder *decoder, uint8_t *pixels, size_t rowStride,
                                      CJPEGDecodeFailure *failure);

/// Frees the decoder and everything libjpeg allocated.
void CJPEGDecodeClose(CJPEGDecoder *decoder);

#endif
