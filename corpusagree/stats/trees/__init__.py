"""Agreement on RST trees: binarisation, Parseval (Marcu 2000; Morey et al. 2017), Iruskieta
et al.'s (2015) comparison as RST-Tace computes it, relation labels and their confusions."""


__all__: list[str] = []
