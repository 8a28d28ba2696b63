"""The GSM family: variants of GSM8K test questions (GSM-Symbolic, GSM-Plus, MGSM, Platinum).

Every variant sample names the GSM8K test question it derives from, so a variant run pairs with a
GSM8K run question by question (``gsm8k-family``).
"""
