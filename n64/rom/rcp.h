/* The N64's memory-mapped registers the ROM uses, at their uncached (KSEG1)
 * addresses, and the COP0 COUNT register. Addresses and bit meanings are the
 * public hardware documentation's (n64brew). */
#ifndef N64_ROM_RCP_H
#define N64_ROM_RCP_H

#include <stdint.h>

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* KSEG1: physical address to uncached CPU address, and back. */
#define UNCACHED(phys) ((uintptr_t)(phys) | 0xA0000000u)
#define PHYSICAL(addr) ((uint32_t)(uintptr_t)(addr) & 0x1FFFFFFFu)

/* RSP memories and interface */
#define SP_DMEM 0xA4000000u
#define SP_IMEM 0xA4001000u
#define SP_MEM_ADDR REG32(0xA4040000u)  /* bit 12: IMEM */
#define SP_DRAM_ADDR REG32(0xA4040004u)
#define SP_RD_LEN REG32(0xA4040008u)    /* RDRAM -> SP memory; length - 1 */
#define SP_STATUS REG32(0xA4040010u)
#define SP_DMA_BUSY REG32(0xA4040018u)
#define SP_PC REG32(0xA4080000u)

/* SP_STATUS, read */
#define SP_STATUS_HALT 0x001u
#define SP_STATUS_BROKE 0x002u
#define SP_STATUS_DMA_BUSY 0x004u
#define SP_STATUS_DMA_FULL 0x008u
/* SP_STATUS, write */
#define SP_WSTATUS_CLEAR_HALT 0x001u
#define SP_WSTATUS_SET_HALT 0x002u
#define SP_WSTATUS_CLEAR_BROKE 0x004u
#define SP_WSTATUS_CLEAR_INTR 0x008u
#define SP_WSTATUS_CLEAR_SSTEP 0x020u
#define SP_WSTATUS_CLEAR_INTR_BREAK 0x080u

/* RDP command interface */
#define DPC_START REG32(0xA4100000u)
#define DPC_END REG32(0xA4100004u)
#define DPC_CURRENT REG32(0xA4100008u)
#define DPC_STATUS REG32(0xA410000Cu)
#define DPC_STATUS_PIPE_BUSY 0x020u
#define DPC_STATUS_CMD_BUSY 0x040u
#define DPC_STATUS_DMA_BUSY 0x100u
#define DPC_WSTATUS_CLEAR_XBUS 0x001u
#define DPC_WSTATUS_CLEAR_FREEZE 0x004u
#define DPC_WSTATUS_CLEAR_FLUSH 0x010u

/* MIPS interface */
#define MI_MODE REG32(0xA4300000u)
#define MI_INTR REG32(0xA4300008u)
#define MI_MASK REG32(0xA430000Cu)
#define MI_INTR_DP 0x20u
#define MI_MODE_CLEAR_DP 0x800u
#define MI_MASK_CLEAR_ALL 0x555u

/* Video interface */
#define VI_BASE 0xA4400000u

/* IS-Viewer 64 on the cartridge bus (cen64 -is-viewer): a text buffer at
 * 0x20, written a word at a time; writing a length to 0x14 prints that many
 * bytes of it. */
#define IS_VIEWER_BASE 0xB3FF0000u
#define IS_VIEWER_LENGTH REG32(0xB3FF0014u)
#define IS_VIEWER_BUFFER 0xB3FF0020u

/* COP0 COUNT: half the CPU clock, 46.875 MHz. */
static inline uint32_t cp0_count(void)
{
    uint32_t v;
    __asm__ volatile("mfc0 %0, $9" : "=r"(v));
    return v;
}

#endif
