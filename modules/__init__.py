"""Game modules shipped with boardstate."""
