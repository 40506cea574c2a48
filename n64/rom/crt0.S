# The program's start: the header the boot code reads (boot.S), then the
# entry point: a stack, a zeroed .bss, rom_main. Exceptions (unexpected:
# nothing here enables interrupts) reach rom_exception on a stack of its own.
    .set noreorder
    .set noat

    .section .header, "a"
    .word   0x42464950              # "BFIP"
    .word   __image_size            # bytes from here to the end of .data
    .word   _start
    .word   exception_entry

    .section .text.start, "ax"
    .globl  _start
_start:
    la      $sp, __stack_top
    move    $gp, $zero
    la      $t0, __bss_start
    la      $t1, __bss_end
1:  beq     $t0, $t1, 2f
    nop
    sw      $zero, 0($t0)
    b       1b
    addiu   $t0, $t0, 4
2:  jal     rom_main
    nop
3:  b       3b
    nop

exception_entry:
    la      $sp, __exception_stack_top
    jal     rom_exception
    nop
4:  b       4b
    nop
