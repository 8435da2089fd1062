// libjpeg reports errors by calling error_exit, which must not return: the only way back is
// longjmp, which Swift frames must never be crossed by. So every libjpeg call sits here, in C,
// below a setjmp of its own, and Swift sees only status codes.
#include "CJPEGDecode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct CJPEGDecoder {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int maximumScans;
    CJPEGDecodeStatus stop;
    int warningCode;
    char warning[JMSG_LENGTH_MAX];
};

static CJPEGDecoder *decoderOf(j_common_ptr info) {
    // `info` is the first member of the decoder.
    return (CJPEGDecoder *)info;
}

static void exitWithError(j_common_ptr info) {
    CJPEGDecoder *decoder = decoderOf(info);
    decoder->stop = CJPEGDecodeLibraryError;
    longjmp(decoder->jump, 1);
}

// Never prints (libjpeg's default writes to stderr); the first warning is kept for the caller.
static void keepMessage(j_common_ptr info, int level) {
    CJPEGDecoder *decoder = decoderOf(info);
    if (level >= 0) return;  // trace messages
    if (info->err->num_warnings == 0) {
        decoder->warningCode = info->err->msg_code;
        info->err->format_message(info, decoder->warning);
    }
    info->err->num_warnings++;
}

static void limitScans(j_common_ptr info) {
    CJPEGDecoder *decoder = decoderOf(info);
    if (info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > decoder->maximumScans) {
        decoder->stop = CJPEGDecodeTooManyScans;
        longjmp(decoder->jump, 1);
    }
}

static CJPEGDecodeStatus failed(CJPEGDecoder *decoder, CJPEGDecodeFailure *failure) {
    memset(failure, 0, sizeof(*failure));
    if (decoder->stop == CJPEGDecodeLibraryError) {
        failure->messageCode = decoder->errors.msg_code;
        decoder->errors.format_message((j_common_ptr)&decoder->info, failure->message);
    }
    return decoder->stop;
}

CJPEGDecoder *CJPEGDecodeOpen(const uint8_t *data, size_t size, int maximumScans, long maximumMemory) {
    CJPEGDecoder *decoder = calloc(1, sizeof(CJPEGDecoder));
    if (decoder == NULL) return NULL;
    decoder->maximumScans = maximumScans;
    decoder->info.err = jpeg_std_error(&decoder->errors);
    decoder->errors.error_exit = exitWithError;
    decoder->errors.emit_message = keepMessage;
    decoder->progress.progress_monitor = limitScans;
    if (setjmp(decoder->jump) != 0) {
        // jpeg_create_decompress fails only when its first allocation does.
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->info.progress = &decoder->progress;
    decoder->info.mem->max_memory_to_use = maximumMemory;
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    return decoder;
}

CJPEGDecodeStatus CJPEGDecodeReadHeader(CJPEGDecoder *decoder, uint32_t *width, uint32_t *height,
                                        CJPEGDecodeFailure *failure) {
    if (setjmp(decoder->jump) != 0) return failed(decoder, failure);
    jpeg_read_header(&decoder->info, TRUE);
    decoder->info.out_color_space = JCS_GRAYSCALE;
    jpeg_calc_output_dimensions(&decoder->info);
    *width = decoder->info.output_width;
    *height = decoder->info.output_height;
    return CJPEGDecodeOK;
}

CJPEGDecodeStatus CJPEGDecodeReadGrey(CJPEGDecoder *decoder, uint8_t *pixels, size_t rowStride,
                                      CJPEGDecodeFailure *failure) {
    if (setjmp(decoder->jump) != 0) return failed(decoder, failure);
    jpeg_start_decompress(&decoder->info);
    while (decoder->info.output_scanline < decoder->info.output_height) {
        JSAMPROW row = pixels + (size_t)decoder->info.output_scanline * rowStride;
        jpeg_read_scanlines(&decoder->info, &row, 1);
    }
    jpeg_finish_decompress(&decoder->info);
    if (decoder->errors.num_warnings > 0) {
        memset(failure, 0, sizeof(*failure));
        failure->messageCode = decoder->warningCode;
        memcpy(failure->message, decoder->warning, sizeof(failure->message));
        return CJPEGDecodeLibraryWarning;
    }
    return CJPEGDecodeOK;
}

void CJPEGDecodeClose(CJPEGDecoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}
