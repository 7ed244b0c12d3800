"""The two games' domain code: Truco (interclub stages, annual rankings) and Quatrilho."""
