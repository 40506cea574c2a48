# What the ROM carries besides its code: the model and its animation stream,
# and the renderer microcode's images (paths from rom.mk).
    .section .rodata.blobs, "a"
    .balign 16
    .globl rom_model, rom_model_end
rom_model:
    .incbin ROM_MODEL_FILE
rom_model_end:
    .balign 16
    .globl rom_stream, rom_stream_end
rom_stream:
    .incbin ROM_STREAM_FILE
rom_stream_end:
    .balign 16
    .globl ucode_imem, ucode_imem_end
ucode_imem:
    .incbin UCODE_IMEM
ucode_imem_end:
    .balign 16
    .globl ucode_dmem, ucode_dmem_end
ucode_dmem:
    .incbin UCODE_DMEM
ucode_dmem_end:
    .balign 16
    .globl ucode_cold, ucode_cold_end
ucode_cold:
    .incbin UCODE_COLD
ucode_cold_end:
    .balign 16
    .globl ucode_clip, ucode_clip_end
ucode_clip:
    .incbin UCODE_CLIP
ucode_clip_end:
