"""Search: move generation, threat-space search (VCF, VCT, proof numbers), the hash table, alpha-beta, iterative
deepening and Lazy SMP."""
